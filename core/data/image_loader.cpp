#include "core/data/image_loader.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <utility>
#include <vector>

#include "core/common/half.h"
#include "core/common/mapped_file.h"
#include "core/data/image_decoder.h"

namespace ql {
namespace {

// For each output coordinate along one axis: the two source pixels and the weight of the second; lo = -1 marks a
// pixel of the letterbox border.
struct Taps {
    std::vector<int> lo, hi;
    std::vector<float> weight;
};

// Output pixel i samples resized pixel r = i + offset of an axis resized from `sourceSize` to `resizedSize`, whose
// centre maps back to source coordinate (r + 0.5) * sourceSize / resizedSize - 0.5 (half-pixel centres), clamped
// at the borders. An r outside the resized axis (letterbox: a negative offset) is border.
Taps bilinearTaps(int outSize, int offset, int resizedSize, int sourceSize) {
    const double sourcePerResized = static_cast<double>(sourceSize) / resizedSize;
    Taps t;
    for (int i = 0; i < outSize; ++i) {
        const int r = i + offset;
        if (r < 0 || r >= resizedSize) {
            t.lo.push_back(-1);
            t.hi.push_back(-1);
            t.weight.push_back(0.0f);
            continue;
        }
        const double src = std::clamp((r + 0.5) * sourcePerResized - 0.5, 0.0, sourceSize - 1.0);
        const int lo = static_cast<int>(std::floor(src));
        t.lo.push_back(lo);
        t.hi.push_back(std::min(lo + 1, sourceSize - 1));
        t.weight.push_back(static_cast<float>(src - lo));
    }
    return t;
}

// How one axis of `sourceSize` pixels becomes `outSize`: the size it is resized to and the offset of the output
// in it (positive: cropped; negative: padded).
struct AxisFit {
    int resized = 0;
    int offset = 0;
};

std::pair<AxisFit, AxisFit> fitAxes(const ImagePreprocess& options, const ImageGeometry& g, int w0, int h0) {
    switch (options.resize) {
        case ResizeMode::Exact:
            return {{g.width, 0}, {g.height, 0}};
        case ResizeMode::Letterbox: {
            const double s = std::min(static_cast<double>(g.width) / w0, static_cast<double>(g.height) / h0);
            const int rw = std::clamp(static_cast<int>(std::lround(w0 * s)), 1, g.width);
            const int rh = std::clamp(static_cast<int>(std::lround(h0 * s)), 1, g.height);
            return {{rw, -((g.width - rw) / 2)}, {rh, -((g.height - rh) / 2)}};
        }
        case ResizeMode::ShorterSideThenCenterCrop:
            break;
    }
    const double s = static_cast<double>(g.shorterSide) / std::min(w0, h0);
    const int rw = std::max(g.width, static_cast<int>(std::lround(w0 * s)));
    const int rh = std::max(g.height, static_cast<int>(std::lround(h0 * s)));
    return {{rw, static_cast<int>(std::lround((rw - g.width) / 2.0))},
            {rh, static_cast<int>(std::lround((rh - g.height) / 2.0))}};
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
    if (spec.dims.size() != 4) return ImageLayout::Auto;  // no image input: nothing to tell
    const auto isChannels = [](int64_t d) { return d == 1 || d == 3; };
    if (isChannels(spec.dims[1])) return ImageLayout::Nchw;
    if (isChannels(spec.dims[3])) return ImageLayout::Nhwc;
    return ImageLayout::Auto;
}

}  // namespace

ImagePreprocess defaultImagePreprocess(const InputSpec& spec) {
    ImagePreprocess p;
    p.layout = detectLayout(spec, ImageLayout::Auto);
    if (p.layout == ImageLayout::Auto || !spec.hasShape || spec.dims.size() != 4) return p;
    const bool nchw = p.layout == ImageLayout::Nchw;
    const auto fixed = [&spec](size_t axis) { return spec.dims[axis] > 0 ? static_cast<int>(spec.dims[axis]) : 0; };
    p.height = fixed(nchw ? 2 : 1);
    p.width = fixed(nchw ? 3 : 2);
    return p;
}

Result<std::vector<float>> parseChannelValues(const std::string& text, const std::string& what) {
    std::vector<float> values;
    size_t at = 0;
    const auto separator = [](char ch) {
        return ch == ',' || ch == ';' || std::isspace(static_cast<unsigned char>(ch));
    };
    while (at < text.size()) {
        if (separator(text[at])) {
            ++at;
            continue;
        }
        size_t end = at;
        while (end < text.size() && !separator(text[end])) ++end;
        const std::string word = text.substr(at, end - at);
        char* parsedEnd = nullptr;
        const float v = std::strtof(word.c_str(), &parsedEnd);
        if (parsedEnd != word.c_str() + word.size() || !std::isfinite(v))
            return invalidArgument("the " + what + " '" + text + "' holds '" + word + "', which is not a number");
        values.push_back(v);
        at = end;
    }
    if (values.empty()) return invalidArgument("the " + what + " is empty; give one number, or one per channel");
    return values;
}

Status checkNormalization(const ImagePreprocess& options, int channels) {
    const auto check = [channels](const std::vector<float>& values, const char* what, const char* example) -> Status {
        const size_t n = values.size();
        if (n == 1 || n == static_cast<size_t>(channels)) return {};
        const std::string has = std::string("the ") + what + " has " + std::to_string(n) + " values but the model " +
                                "input has " + std::to_string(channels);
        if (channels == 1) return invalidArgument(has + " channel; give one value");
        return invalidArgument(has + " channels; give one value (for every channel) or " + std::to_string(channels) +
                               " (one per channel), e.g. " + example);
    };
    QL_RETURN_IF_ERROR(check(options.mean, "mean", "0.485, 0.456, 0.406"));
    QL_RETURN_IF_ERROR(check(options.stddev, "std", "0.229, 0.224, 0.225"));
    for (float s : options.stddev)
        if (s == 0.0f) return invalidArgument("a std of 0 would divide by zero");
    return {};
}

const char* resizeModeName(ResizeMode mode) {
    switch (mode) {
        case ResizeMode::ShorterSideThenCenterCrop:
            return "center-crop";
        case ResizeMode::Exact:
            return "stretch";
        case ResizeMode::Letterbox:
            return "letterbox";
    }
    return "center-crop";
}

Result<ResizeMode> parseResizeMode(const std::string& name) {
    for (ResizeMode mode : {ResizeMode::ShorterSideThenCenterCrop, ResizeMode::Exact, ResizeMode::Letterbox})
        if (name == resizeModeName(mode)) return mode;
    return invalidArgument("unknown resize mode '" + name + "'; give center-crop, stretch or letterbox");
}

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
    QL_RETURN_IF_ERROR(checkNormalization(options, g.channels));
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
    const auto [fx, fy] = fitAxes(options, g, w0, h0);
    const Taps tx = bilinearTaps(g.width, fx.offset, fx.resized, w0);
    const Taps ty = bilinearTaps(g.height, fy.offset, fy.resized, h0);
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
            const bool border = ty.lo[y] < 0 || tx.lo[x] < 0;
            for (int oc = 0; oc < c; ++oc) {
                const float v = border ? options.padValue
                                       : sample(y, x, options.order == ChannelOrder::Bgr && c == 3 ? 2 - oc : oc);
                const size_t index = nchw ? (static_cast<size_t>(oc) * g.height + y) * g.width + x
                                          : (static_cast<size_t>(y) * g.width + x) * c + oc;
                out[index] = (v * options.scale - channelValue(options.mean, oc)) / channelValue(options.stddev, oc);
            }
        }
    }
    if (g.dtype == DataType::Float) return Tensor::fromVector(DataType::Float, shape, out);
    std::vector<uint16_t> half(out.size());
    std::transform(out.begin(), out.end(), half.begin(), floatToHalf);
    return Tensor::fromVector(DataType::Float16, shape, half);
}

}  // namespace ql
