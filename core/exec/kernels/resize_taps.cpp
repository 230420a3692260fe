#include "core/exec/kernels/resize_taps.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace ql {

namespace {

// Where output coordinate x falls in the input (ONNX reference: interpolate_1d_with_x).
// `out` is scale * in, not rounded: the reference aligns corners of the unrounded output; `outSize` is the rounded one.
double originalCoordinate(CoordinateMode mode, double x, int64_t in, double out, int64_t outSize, double scale,
                          double roiStart, double roiEnd) {
    switch (mode) {
        case CoordinateMode::HalfPixelSymmetric: {
            const double center = static_cast<double>(in) / 2, adjustment = static_cast<double>(outSize) / out;
            return center * (1 - adjustment) + (x + 0.5) / scale - 0.5;
        }
        case CoordinateMode::HalfPixel:
            return (x + 0.5) / scale - 0.5;
        case CoordinateMode::PytorchHalfPixel:
            return out == 1 ? -0.5 : (x + 0.5) / scale - 0.5;
        case CoordinateMode::AlignCorners:
            return out == 1 ? 0.0 : x * static_cast<double>(in - 1) / (out - 1);
        case CoordinateMode::Asymmetric:
            return x / scale;
        case CoordinateMode::TfHalfPixelForNearest:
            return (x + 0.5) / scale;
        case CoordinateMode::TfCropAndResize: {
            const double span = (roiEnd - roiStart) * static_cast<double>(in - 1);
            return roiStart * static_cast<double>(in - 1) + (out == 1 ? span / 2 : x * span / (out - 1));
        }
    }
    return x;
}

int64_t nearestIndex(NearestMode mode, double x, double scale) {
    const double f = std::floor(x);
    if (x == f) return static_cast<int64_t>(f);
    const double ratio = x - f;
    bool up = false;
    switch (mode) {
        case NearestMode::RoundPreferFloor:
            up = ratio > 0.5;
            break;
        case NearestMode::RoundPreferCeil:
            up = ratio >= 0.5;
            break;
        case NearestMode::Floor:
            up = false;
            break;
        case NearestMode::Ceil:
            up = true;
            break;
        case NearestMode::Simple:
            up = scale < 1.0;
            break;
    }
    return static_cast<int64_t>(f) + (up ? 1 : 0);
}

std::array<double, 4> cubicCoefficients(double r, double a) {
    const double s = 1 - r;
    return {((a * (r + 1) - 5 * a) * (r + 1) + 8 * a) * (r + 1) - 4 * a, ((a + 2) * r - (a + 3)) * r * r + 1,
            ((a + 2) * s - (a + 3)) * s * s + 1, ((a * (s + 1) - 5 * a) * (s + 1) + 8 * a) * (s + 1) - 4 * a};
}

}  // namespace

AxisTaps resizeTaps(const ResizeOptions& options, int64_t inSize, int64_t outSize, float scale, float roiStart,
                    float roiEnd) {
    AxisTaps t;
    t.tapsPerOutput = options.mode == ResizeMode::Nearest ? 1 : options.mode == ResizeMode::Linear ? 2 : 4;
    t.outside.assign(static_cast<size_t>(outSize), false);
    t.identity = inSize == outSize;
    auto clampIndex = [inSize](int64_t i) { return std::clamp<int64_t>(i, 0, inSize - 1); };
    // The unrounded output width; a float scale derived from sizes snaps back to the exact size.
    double width = static_cast<double>(scale) * static_cast<double>(inSize);
    if (std::abs(width - static_cast<double>(outSize)) < 1e-4) width = static_cast<double>(outSize);
    for (int64_t o = 0; o < outSize; ++o) {
        const double x = originalCoordinate(options.coordinates, static_cast<double>(o), inSize, width, outSize, scale,
                                            roiStart, roiEnd);
        if (options.coordinates == CoordinateMode::TfCropAndResize && (x < 0 || x > static_cast<double>(inSize - 1)))
            t.outside[static_cast<size_t>(o)] = true;
        if (options.mode == ResizeMode::Nearest) {
            const int64_t i = clampIndex(nearestIndex(options.nearest, x, scale));
            t.taps.push_back({i, 1.0f});
            t.identity = t.identity && i == o;
            continue;
        }
        t.identity = false;
        const double f = std::floor(x), r = x - f;
        const auto base = static_cast<int64_t>(f);
        std::array<double, 4> w{};
        int64_t first = base;
        if (options.mode == ResizeMode::Linear) {
            w = {1 - r, r, 0, 0};
        } else {
            w = cubicCoefficients(r, options.cubicA);
            first = base - 1;
        }
        double sum = 0;
        for (int64_t k = 0; k < t.tapsPerOutput; ++k) {
            const int64_t i = first + k;
            if (options.excludeOutside && (i < 0 || i >= inSize)) w[static_cast<size_t>(k)] = 0;
            sum += w[static_cast<size_t>(k)];
        }
        for (int64_t k = 0; k < t.tapsPerOutput; ++k) {
            const double weight =
                options.excludeOutside && sum != 0 ? w[static_cast<size_t>(k)] / sum : w[static_cast<size_t>(k)];
            t.taps.push_back({clampIndex(first + k), static_cast<float>(weight)});
        }
    }
    // Linear and cubic are the identity too where every output reads its own input with weight 1 (a unit scale
    // with half_pixel coordinates), so the kernel can skip the axis.
    if (options.mode != ResizeMode::Nearest && inSize == outSize) {
        t.identity = true;
        for (int64_t o = 0; o < outSize && t.identity; ++o)
            for (int64_t k = 0; k < t.tapsPerOutput; ++k) {
                const ResizeTap& tap = t.taps[static_cast<size_t>(o * t.tapsPerOutput + k)];
                if (tap.weight != 0.0f && (tap.index != o || tap.weight != 1.0f)) t.identity = false;
            }
    }
    if (options.coordinates == CoordinateMode::TfCropAndResize) t.identity = false;
    return t;
}

}  // namespace ql
