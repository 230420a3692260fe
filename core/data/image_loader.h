#pragma once
// Images (PNG, JPEG, BMP, decoded by stb_image) turned into model input samples:
//   1. decode as RGB, or as grayscale when the model input has 1 channel;
//   2. resize with bilinear interpolation (half-pixel centres, as OpenCV INTER_LINEAR): either the shorter
//      side to `shorterSide` then a centre crop to the model's HxW (torchvision Resize + CenterCrop), or
//      exactly to HxW;
//   3. reorder channels (RGB or BGR), then value = (pixel * scale - mean[c]) / stddev[c], with mean and
//      stddev given in the output channel order;
//   4. lay out as CHW or HWC (the sample of an NCHW / NHWC input).
#include <array>
#include <string>

#include "core/data/data_limits.h"
#include "core/data/data_source.h"

namespace ql {

enum class ResizeMode { ShorterSideThenCenterCrop, Exact };
enum class ChannelOrder { Rgb, Bgr };
enum class ImageLayout { Auto, Nchw, Nhwc };

struct ImagePreprocess {
    ResizeMode resize = ResizeMode::ShorterSideThenCenterCrop;
    int shorterSide = 0;        // 0: the crop's longer side / 0.875 (256 for 224, the ImageNet convention)
    int width = 0, height = 0;  // 0: taken from the model input
    ChannelOrder order = ChannelOrder::Rgb;
    float scale = 1.0f / 255.0f;
    std::array<float, 3> mean{0.0f, 0.0f, 0.0f};
    std::array<float, 3> stddev{1.0f, 1.0f, 1.0f};
    ImageLayout layout = ImageLayout::Auto;  // Auto: NCHW when dim 1 is 1 or 3, else NHWC when the last dim is
};

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

bool isImageFile(const std::string& path);  // by extension: .png .jpg .jpeg .bmp (any case)

}  // namespace ql
