#pragma once
// Images (PNG, JPEG, BMP, decoded by stb_image) turned into model input samples:
//   1. decode as RGB, or as grayscale when the model input has 1 channel;
//   2. resize with bilinear interpolation (half-pixel centres, as OpenCV INTER_LINEAR), one of:
//      center crop: the shorter side to `shorterSide`, then a centre crop to the model's HxW (torchvision
//      Resize + CenterCrop); stretch: exactly to HxW; letterbox: the whole image scaled to fit HxW keeping its
//      aspect, centred, the rest filled with `padValue` (YOLO-style detectors);
//   3. reorder channels (RGB or BGR), then value = (pixel * scale - mean[c]) / stddev[c], with mean and
//      stddev given in the output channel order, one value for all channels or one per channel;
//   4. lay out as CHW or HWC (the sample of an NCHW / NHWC input).
#include <string>
#include <vector>

#include "core/data/data_limits.h"
#include "core/data/data_source.h"

namespace ql {

// The values are stored in projects (docs/project-format.md): new modes go at the end.
enum class ResizeMode { ShorterSideThenCenterCrop, Exact, Letterbox };
enum class ChannelOrder { Rgb, Bgr };
enum class ImageLayout { Auto, Nchw, Nhwc };

struct ImagePreprocess {
    ResizeMode resize = ResizeMode::ShorterSideThenCenterCrop;
    int shorterSide = 0;        // 0: the crop's longer side / 0.875 (256 for 224, the ImageNet convention)
    int width = 0, height = 0;  // 0: taken from the model input
    ChannelOrder order = ChannelOrder::Rgb;
    float scale = 1.0f / 255.0f;
    // One value (every channel) or one per channel of the model input; imageGeometry() checks the count.
    std::vector<float> mean{0.0f};
    std::vector<float> stddev{1.0f};
    float padValue = 114.0f;  // letterbox: the border's pixel value (0-255, before scale/mean/std), Ultralytics' grey
    ImageLayout layout = ImageLayout::Auto;  // Auto: NCHW when dim 1 is 1 or 3, else NHWC when the last dim is
};

// What a model input suggests before the user says anything: its fixed height and width (0 where symbolic), its
// layout when the shape tells, RGB, [0, 1] values. A model never starts from another model's settings.
ImagePreprocess defaultImagePreprocess(const InputSpec& spec);

// "0.485, 0.456, 0.406" or "0.5" (separated by commas, semicolons or spaces) as numbers; `what` ("mean") names
// the field in the error. The count is checked against the model by checkNormalization().
Result<std::vector<float>> parseChannelValues(const std::string& text, const std::string& what);
// Mean and std hold 1 or `channels` values and no std is 0; the message says which and what to give.
Status checkNormalization(const ImagePreprocess& options, int channels);

// The value of `values` (a mean or std of 1 or `channels` values) that applies to channel `channel`.
inline float channelValue(const std::vector<float>& values, int channel) {
    return values.size() == 1 ? values[0] : values[static_cast<size_t>(channel)];
}

// The sample an image becomes, resolved from the model input and the options.
struct ImageGeometry {
    ImageLayout layout = ImageLayout::Nchw;
    int channels = 3;
    int width = 0;
    int height = 0;
    int shorterSide = 0;  // resize target of the shorter side (ShorterSideThenCenterCrop)
    DataType dtype = DataType::Float;
};

Result<ImageGeometry> imageGeometry(const InputSpec& spec, const ImagePreprocess& options);

// One sample ([C,H,W] or [H,W,C]); a file stb cannot decode is an error naming it.
Result<Tensor> loadImage(const std::string& path, const ImagePreprocess& options, const ImageGeometry& geometry,
                         const DataLimits& limits = {});

// The resize mode's name on the command line and in messages ("center-crop", "stretch", "letterbox"), and back.
const char* resizeModeName(ResizeMode mode);
Result<ResizeMode> parseResizeMode(const std::string& name);

bool isImageFile(const std::string& path);  // by extension: .png .jpg .jpeg .bmp (any case)

}  // namespace ql
