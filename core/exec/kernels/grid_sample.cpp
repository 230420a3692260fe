#include "core/exec/kernels/grid_sample.h"

#include <algorithm>
#include <cmath>

#include "core/exec/kernels/elementwise_util.h"

namespace ql {

namespace {

using Mode = GridSampleKernel::Mode;
using Padding = GridSampleKernel::Padding;

// One input plane and how it is read outside its bounds.
struct Plane {
    const float* data;
    int64_t height, width;
    Padding padding;
    bool alignCorners;

    float unnormalize(float coord, int64_t size) const {
        return alignCorners ? (coord + 1) / 2 * static_cast<float>(size - 1)
                            : ((coord + 1) * static_cast<float>(size) - 1) / 2;
    }
    static float clip(float v, int64_t size) { return std::min(static_cast<float>(size - 1), std::max(v, 0.0f)); }
    static float reflect(float v, int64_t twiceLow, int64_t twiceHigh) {
        if (twiceLow == twiceHigh) return 0.0f;
        const float lo = static_cast<float>(twiceLow) / 2, span = static_cast<float>(twiceHigh - twiceLow) / 2;
        v = std::fabs(v - lo);
        const float extra = std::fmod(v, span);
        const auto flips = static_cast<int64_t>(std::floor(v / span));
        return flips % 2 == 0 ? extra + lo : span - extra + lo;
    }
    // Border clamps and reflection mirrors a coordinate into the plane (PyTorch's compute_coordinates).
    float pad(float v, int64_t size) const {
        if (padding == Padding::Border) return clip(v, size);
        if (padding == Padding::Reflection)
            return clip(alignCorners ? reflect(v, 0, 2 * (size - 1)) : reflect(v, -1, 2 * size - 1), size);
        return v;
    }
    float at(int64_t y, int64_t x) const {
        return y >= 0 && y < height && x >= 0 && x < width ? data[y * width + x] : 0.0f;
    }
};

// Any floating-point tensor as float.
Tensor asFloat(const Tensor& t) {
    return t.dtype() == DataType::Float ? t : Tensor::fromVector(DataType::Float, t.shape(), t.toFloats());
}

float cubicInterpolate(const float v[4], float t) {
    constexpr float a = -0.75f;
    auto near = [](float x) { return ((a + 2) * x - (a + 3)) * x * x + 1; };
    auto far = [](float x) { return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a; };
    return v[0] * far(t + 1) + v[1] * near(t) + v[2] * near(1 - t) + v[3] * far(2 - t);
}

float sample(const Plane& p, Mode mode, float gx, float gy) {
    if (mode == Mode::Cubic) {
        const float x = p.unnormalize(gx, p.width), y = p.unnormalize(gy, p.height);
        const float x0 = std::floor(x), y0 = std::floor(y);
        float rows[4];
        for (int i = 0; i < 4; ++i) {
            float taps[4];
            for (int j = 0; j < 4; ++j) {
                const float tx = p.pad(x0 - 1 + static_cast<float>(j), p.width),
                            ty = p.pad(y0 - 1 + static_cast<float>(i), p.height);
                taps[j] = p.at(static_cast<int64_t>(ty), static_cast<int64_t>(tx));
            }
            rows[i] = cubicInterpolate(taps, x - x0);
        }
        return cubicInterpolate(rows, y - y0);
    }
    const float x = p.pad(p.unnormalize(gx, p.width), p.width), y = p.pad(p.unnormalize(gy, p.height), p.height);
    if (mode == Mode::Nearest)
        return p.at(static_cast<int64_t>(std::nearbyint(y)), static_cast<int64_t>(std::nearbyint(x)));
    const float x0 = std::floor(x), y0 = std::floor(y), x1 = x0 + 1, y1 = y0 + 1;
    const auto ix = static_cast<int64_t>(x0), iy = static_cast<int64_t>(y0);
    return p.at(iy, ix) * (x1 - x) * (y1 - y) + p.at(iy, ix + 1) * (x - x0) * (y1 - y) +
           p.at(iy + 1, ix) * (x1 - x) * (y - y0) + p.at(iy + 1, ix + 1) * (x - x0) * (y - y0);
}

}  // namespace

Status GridSampleKernel::init(const KernelInit& info) {
    const std::string mode = info.node.stringAttribute("mode", info.opset >= 20 ? "linear" : "bilinear");
    if (mode == "bilinear" || mode == "linear")
        mMode = Mode::Linear;
    else if (mode == "nearest")
        mMode = Mode::Nearest;
    else if (mode == "bicubic" || mode == "cubic")
        mMode = Mode::Cubic;
    else
        return info.fail("mode '" + mode + "' is not linear (bilinear), nearest or cubic (bicubic)");
    const std::string padding = info.node.stringAttribute("padding_mode", "zeros");
    if (padding == "zeros")
        mPadding = Padding::Zeros;
    else if (padding == "border")
        mPadding = Padding::Border;
    else if (padding == "reflection")
        mPadding = Padding::Reflection;
    else
        return info.fail("padding_mode '" + padding + "' is not zeros, border or reflection");
    mAlignCorners = info.node.intAttribute("align_corners", 0) != 0;
    return Status::ok();
}

Status GridSampleKernel::compute(KernelContext& ctx) {
    if (!ctx.hasInput(0) || !ctx.hasInput(1)) return ctx.fail("needs inputs X and grid");
    const DataType dtype = ctx.input(0).dtype();
    const Tensor x = asFloat(ctx.input(0)), grid = asFloat(ctx.input(1));
    if (x.rank() != 4 || grid.rank() != 4 || grid.dim(0) != x.dim(0) || grid.dim(3) != 2)
        return ctx.fail("X must be [N, C, H, W] and grid [N, H_out, W_out, 2] (4-D only), not " +
                        shapeString(x.shape()) + " and " + shapeString(grid.shape()));
    const int64_t n = x.dim(0), channels = x.dim(1), outH = grid.dim(1), outW = grid.dim(2);
    Tensor y(DataType::Float, {n, channels, outH, outW});
    const float* g = grid.data<float>();
    for (int64_t b = 0; b < n; ++b)
        for (int64_t c = 0; c < channels; ++c) {
            const Plane plane{x.data<float>() + (b * channels + c) * x.dim(2) * x.dim(3), x.dim(2), x.dim(3), mPadding,
                              mAlignCorners};
            float* out = y.data<float>() + (b * channels + c) * outH * outW;
            for (int64_t i = 0; i < outH * outW; ++i)
                out[i] = sample(plane, mMode, g[(b * outH * outW + i) * 2], g[(b * outH * outW + i) * 2 + 1]);
        }
    if (dtype == DataType::Double) {
        const std::vector<float> values = y.toFloats();
        ctx.setOutput(0, Tensor::fromVector(dtype, y.shape(), std::vector<double>(values.begin(), values.end())));
        return Status::ok();
    }
    setOutputAs(ctx, 0, std::move(y), dtype);
    return Status::ok();
}

}  // namespace ql
