#include "core/exec/kernels/resize_bilinear.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace ql {

namespace {

// ONNX Runtime's get_original_coordinate, in float.
float originalCoordinate(CoordinateMode mode, float resized, float scale, float lengthResized, float lengthOriginal) {
    switch (mode) {
        case CoordinateMode::HalfPixel:
            return ((resized + 0.5f) / scale) - 0.5f;
        case CoordinateMode::PytorchHalfPixel:
            return lengthResized > 1 ? (resized + 0.5f) / scale - 0.5f : 0.0f;
        case CoordinateMode::AlignCorners:
            return lengthResized == 1 ? 0.0f : resized * (lengthOriginal - 1) / (lengthResized - 1);
        case CoordinateMode::TfHalfPixelForNearest:
            return (resized + 0.5f) / scale;
        case CoordinateMode::Asymmetric:
        case CoordinateMode::TfCropAndResize:
        case CoordinateMode::HalfPixelSymmetric:  // not an ONNX Runtime bilinear mode: bilinearCase excludes it
            break;
    }
    return resized / scale;
}

// Per output coordinate: the two input indices and their weights (the farther one's distance weighs the nearer).
struct Axis {
    std::vector<int64_t> first, second;
    std::vector<float> nearWeight, farWeight;  // dx2 (weight of `first`) and dx1 (weight of `second`)
};

Axis axisPlan(CoordinateMode mode, int64_t in, int64_t out, float scale) {
    Axis a;
    // align_corners divides by the unrounded resized length (in * scale), as ONNX's reference does; a scale derived
    // from sizes gives back the exact size.
    const double unrounded = static_cast<double>(scale) * static_cast<double>(in);
    const auto resized = static_cast<float>(std::abs(unrounded - static_cast<double>(out)) < 1e-4 ? out : unrounded);
    for (int64_t o = 0; o < out; ++o) {
        float x = scale == 1.0f
                      ? static_cast<float>(o)
                      : originalCoordinate(mode, static_cast<float>(o), scale, resized, static_cast<float>(in));
        x = std::max(0.0f, std::min(x, static_cast<float>(in - 1)));
        const int64_t i1 = std::min(static_cast<int64_t>(x), in - 1), i2 = std::min(i1 + 1, in - 1);
        float d1 = std::fabs(x - static_cast<float>(i1)), d2 = std::fabs(x - static_cast<float>(i2));
        if (i1 == i2) d1 = d2 = 0.5f;
        a.first.push_back(i1);
        a.second.push_back(i2);
        a.nearWeight.push_back(d2);
        a.farWeight.push_back(d1);
    }
    return a;
}

}  // namespace

bool bilinearCase(const Tensor& in, const Shape& outShape, const ResizeOptions& options) {
    if (in.dtype() != DataType::Float || in.rank() < 2 || in.rank() > 4 || options.mode != ResizeMode::Linear ||
        options.coordinates == CoordinateMode::TfCropAndResize ||
        options.coordinates == CoordinateMode::TfHalfPixelForNearest ||
        options.coordinates == CoordinateMode::HalfPixelSymmetric)
        return false;
    for (size_t d = 0; d + 2 < in.rank(); ++d)
        if (outShape[d] != in.dim(d)) return false;
    return true;
}

void resizeBilinear(const Tensor& in, Tensor& out, CoordinateMode coordinates, float heightScale, float widthScale) {
    const size_t rank = in.rank();
    const int64_t inH = in.dim(rank - 2), inW = in.dim(rank - 1), outH = out.dim(rank - 2), outW = out.dim(rank - 1);
    const Axis ys = axisPlan(coordinates, inH, outH, heightScale), xs = axisPlan(coordinates, inW, outW, widthScale);
    const int64_t planes = in.elementCount() / std::max<int64_t>(1, inH * inW);
#pragma omp parallel for schedule(static)
    for (int64_t p = 0; p < planes; ++p) {
        const float* src = in.data<float>() + p * inH * inW;
        float* dst = out.data<float>() + p * outH * outW;
        for (int64_t y = 0; y < outH; ++y) {
            const float* row1 = src + ys.first[static_cast<size_t>(y)] * inW;
            const float* row2 = src + ys.second[static_cast<size_t>(y)] * inW;
            const float dy2 = ys.nearWeight[static_cast<size_t>(y)], dy1 = ys.farWeight[static_cast<size_t>(y)];
            for (int64_t x = 0; x < outW; ++x) {
                const auto i = static_cast<size_t>(x);
                const float dx2 = xs.nearWeight[i], dx1 = xs.farWeight[i];
                dst[y * outW + x] = dx2 * dy2 * row1[xs.first[i]] + dx1 * dy2 * row1[xs.second[i]] +
                                    dx2 * dy1 * row2[xs.first[i]] + dx1 * dy1 * row2[xs.second[i]];
            }
        }
    }
}

}  // namespace ql
