#include "core/data/image_loader.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <memory>
#include <vector>

#include "core/common/half.h"
#include "core/common/mapped_file.h"
#include "core/data/image_decoder.h"

namespace ql {
namespace {

// For each output coordinate along one axis: the two source pixels and the weight of the second.
struct Taps {
    std::vector<int> lo, hi;
    std::vector<float> weight;
};

// Output pixel i samples resized pixel (i + offset), whose centre maps back to source coordinate
// (i + offset + 0.5) * sourcePerResized - 0.5 (half-pixel centres), clamped at the borders.
Taps bilinearTaps(int outSize, int offset, double sourcePerResized, int sourceSize) {
    Taps t;
    for (int i = 0; i < outSize; ++i) {
        const double src = std::clamp((i + offset + 0.5) * sourcePerResized - 0.5, 0.0, sourceSize - 1.0);
        const int lo = static_cast<int>(std::floor(src));
        t.lo.push_back(lo);
        t.hi.push_back(std::min(lo + 1, sourceSize - 1));
        t.weight.push_back(static_cast<float>(src - lo));
    }
    return t;
}

Result<int> resolveDim(int64_t modelDim, int option, const InputSpec& spec, const char* what) {
    if (modelDim >= 0 && option > 0 && modelDim != option) {
        return invalidArgument("model input '" + spec.name + "' has " + what + " " + std::to_string(modelDim) +
                               " but the preprocessing asks for " + std::to_string(option));
    }
    const int64_t v = modelDim >= 0 ? modelDim : option;
    if (v <= 0) {
        return invalidArgument("model input '" + spec.name + "' has an unknown " + what +
                               "; give the image size in the preprocessing options");
    }
    return static_cast<int>(v);
}

ImageLayout detectLayout(const InputSpec& spec, ImageLayout requested) {
    if (requested != ImageLayout::Auto) return requested;
    if (!spec.hasShape) return ImageLayout::Nchw;
    const auto isChannels = [](int64_t d) { return d == 1 || d == 3; };
    if (isChannels(spec.dims[1])) return ImageLayout::Nchw;
    if (isChannels(spec.dims[3])) return ImageLayout::Nhwc;
    return ImageLayout::Auto;
}

}  // namespace

bool isImageFile(const std::string& path) {
    const size_t dot = path.rfind('.');
    if (dot == std::string::npos) return false;
    std::string ext = path.substr(dot + 1);
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return ext == "png" || ext == "jpg" || ext == "jpeg" || ext == "bmp";
}

Result<ImageGeometry> imageGeometry(const InputSpec& spec, const ImagePreprocess& options) {
    if (spec.dtype != DataType::Float && spec.dtype != DataType::Float16) {
        return unsupported("model input '" + spec.name + "' takes " + numpyDtypeName(spec.dtype) +
                           " data; images can feed float32 or float16 inputs only (give .npy data instead)");
    }
    if (spec.hasShape && spec.dims.size() != 4) {
        return invalidArgument("model input '" + spec.name + "' has rank " + std::to_string(spec.dims.size()) +
                               "; images need a 4-D NCHW or NHWC input");
    }
    ImageGeometry g;
    g.dtype = spec.dtype;
    g.layout = detectLayout(spec, options.layout);
    if (g.layout == ImageLayout::Auto) {
        return invalidArgument("cannot tell whether model input '" + spec.name +
                               "' is NCHW or NHWC (no axis of 1 or 3 channels); give the layout");
    }
    const bool nchw = g.layout == ImageLayout::Nchw;
    const auto dim = [&](size_t nchwAxis, size_t nhwcAxis) {
        return spec.hasShape ? spec.dims[nchw ? nchwAxis : nhwcAxis] : int64_t{-1};
    };
    const int64_t channels = dim(1, 3);
    g.channels = channels < 0 ? 3 : static_cast<int>(channels);
    if (g.channels != 1 && g.channels != 3) {
        return invalidArgument("model input '" + spec.name + "' has " + std::to_string(g.channels) +
                               " channels; images give 1 (grayscale) or 3 (color)");
    }
    QL_ASSIGN_OR_RETURN(g.height, resolveDim(dim(2, 1), options.height, spec, "height"));
    QL_ASSIGN_OR_RETURN(g.width, resolveDim(dim(3, 2), options.width, spec, "width"));
    g.shorterSide = options.shorterSide > 0 ? options.shorterSide
                                            : static_cast<int>(std::lround(std::max(g.width, g.height) / 0.875));
    if (options.resize == ResizeMode::ShorterSideThenCenterCrop && g.shorterSide < std::max(g.width, g.height)) {
        return invalidArgument("resizing the shorter side to " + std::to_string(g.shorterSide) + " leaves too few " +
                               "pixels for a " + std::to_string(g.width) + "x" + std::to_string(g.height) +
                               " crop; resize to at least " + std::to_string(std::max(g.width, g.height)));
    }
    return g;
}

Result<Tensor> loadImage(const std::string& path, const ImagePreprocess& options, const ImageGeometry& g,
                         const DataLimits& limits) {
    QL_ASSIGN_OR_RETURN(std::shared_ptr<MappedFile> file, MappedFile::open(path));
    QL_ASSIGN_OR_RETURN(DecodedImage image, decodeImage(file->bytes(), g.channels, path, limits));
    const int w0 = image.width, h0 = image.height;
    double sx = static_cast<double>(w0) / g.width, sy = static_cast<double>(h0) / g.height;
    int offX = 0, offY = 0;
    if (options.resize == ResizeMode::ShorterSideThenCenterCrop) {
        const double s = static_cast<double>(g.shorterSide) / std::min(w0, h0);
        const auto rw = std::max(g.width, static_cast<int>(std::lround(w0 * s)));
        const auto rh = std::max(g.height, static_cast<int>(std::lround(h0 * s)));
        sx = static_cast<double>(w0) / rw;
        sy = static_cast<double>(h0) / rh;
        offX = static_cast<int>(std::lround((rw - g.width) / 2.0));
        offY = static_cast<int>(std::lround((rh - g.height) / 2.0));
    }
    const Taps tx = bilinearTaps(g.width, offX, sx, w0), ty = bilinearTaps(g.height, offY, sy, h0);
    const int c = g.channels;
    const bool nchw = g.layout == ImageLayout::Nchw;
    Shape shape = nchw ? Shape{c, g.height, g.width} : Shape{g.height, g.width, c};
    std::vector<float> out(static_cast<size_t>(c) * g.width * g.height);
    const unsigned char* px = image.pixels.get();
    const auto at = [&](int y, int x, int ch) {
        return static_cast<float>(px[(static_cast<size_t>(y) * w0 + x) * c + ch]);
    };
    const auto sample = [&](int y, int x, int ch) {
        const float top =
            at(ty.lo[y], tx.lo[x], ch) + (at(ty.lo[y], tx.hi[x], ch) - at(ty.lo[y], tx.lo[x], ch)) * tx.weight[x];
        const float bottom =
            at(ty.hi[y], tx.lo[x], ch) + (at(ty.hi[y], tx.hi[x], ch) - at(ty.hi[y], tx.lo[x], ch)) * tx.weight[x];
        return top + (bottom - top) * ty.weight[y];
    };
    for (int y = 0; y < g.height; ++y) {
        for (int x = 0; x < g.width; ++x) {
            for (int oc = 0; oc < c; ++oc) {
                const float v = sample(y, x, options.order == ChannelOrder::Bgr && c == 3 ? 2 - oc : oc);
                const size_t index = nchw ? (static_cast<size_t>(oc) * g.height + y) * g.width + x
                                          : (static_cast<size_t>(y) * g.width + x) * c + oc;
                out[index] = (v * options.scale - options.mean[oc]) / options.stddev[oc];
            }
        }
    }
    if (g.dtype == DataType::Float) return Tensor::fromVector(DataType::Float, shape, out);
    std::vector<uint16_t> half(out.size());
    std::transform(out.begin(), out.end(), half.begin(), floatToHalf);
    return Tensor::fromVector(DataType::Float16, shape, half);
}

}  // namespace ql
