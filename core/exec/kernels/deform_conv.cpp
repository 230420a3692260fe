#include "core/exec/kernels/deform_conv.h"

#include <Eigen/Core>
#include <cmath>

#include "core/exec/kernels/loss_util.h"

namespace ql {

namespace {

enum Input : size_t { kX = 0, kW, kOffset, kBias, kMask };

float bilinearAt(const float* plane, int64_t height, int64_t width, float y, float x) {
    if (y <= -1.0f || y >= static_cast<float>(height) || x <= -1.0f || x >= static_cast<float>(width)) return 0.0f;
    const float y0 = std::floor(y), x0 = std::floor(x), ly = y - y0, lx = x - x0;
    const auto iy = static_cast<int64_t>(y0), ix = static_cast<int64_t>(x0);
    auto at = [&](int64_t r, int64_t c) {
        return r >= 0 && r < height && c >= 0 && c < width ? plane[r * width + c] : 0.0f;
    };
    return (1 - ly) * (1 - lx) * at(iy, ix) + (1 - ly) * lx * at(iy, ix + 1) + ly * (1 - lx) * at(iy + 1, ix) +
           ly * lx * at(iy + 1, ix + 1);
}

std::vector<float> floatsOf(const KernelContext& ctx, size_t input) {
    return ctx.hasInput(input) ? ctx.input(input).toFloats() : std::vector<float>();
}

}  // namespace

Status DeformConvKernel::init(const KernelInit& info) {
    QL_ASSIGN_OR_RETURN(mAttrs, parseConvAttributes(info, false));
    mOffsetGroups = info.node.intAttribute("offset_group", 1);
    if (mOffsetGroups < 1) return info.fail("offset_group must be at least 1");
    return Status::ok();
}

Status DeformConvKernel::compute(KernelContext& ctx) {
    if (!ctx.hasInput(kX) || !ctx.hasInput(kW) || !ctx.hasInput(kOffset))
        return ctx.fail("needs inputs X, W and offset");
    const Tensor &xt = ctx.input(kX), &wt = ctx.input(kW);
    if (xt.rank() != 4)
        return ctx.fail("only 2-D deformable convolutions are supported, not X " + shapeString(xt.shape()));
    QL_ASSIGN_OR_RETURN(const ConvGeometry g, convGeometry(ctx, mAttrs, xt.shape(), wt.shape()));
    const int64_t n = xt.dim(0), c = xt.dim(1), h = xt.dim(2), w = xt.dim(3), m = wt.dim(0), kh = wt.dim(2),
                  kw = wt.dim(3);
    const int64_t oh = g.outputShape[2], ow = g.outputShape[3], taps = kh * kw, positions = oh * ow;
    if (c % mOffsetGroups != 0 || ctx.input(kOffset).shape() != Shape{n, mOffsetGroups * 2 * taps, oh, ow})
        return ctx.fail("offset must be " + shapeString({n, mOffsetGroups * 2 * taps, oh, ow}) +
                        " with offset_group dividing the channels");
    if (ctx.hasInput(kMask) && ctx.input(kMask).shape() != Shape{n, mOffsetGroups * taps, oh, ow})
        return ctx.fail("mask must be " + shapeString({n, mOffsetGroups * taps, oh, ow}));
    const std::vector<float> x = xt.toFloats(), weights = wt.toFloats(), offsets = floatsOf(ctx, kOffset),
                             bias = floatsOf(ctx, kBias), mask = floatsOf(ctx, kMask);
    const int64_t groups = mAttrs.group, groupIn = c / groups, groupOut = m / groups,
                  perOffsetGroup = c / mOffsetGroups;
    using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    std::vector<double> y(static_cast<size_t>(n * m * positions));
    Matrix col(groupIn * taps, positions);
    for (int64_t b = 0; b < n; ++b)
        for (int64_t grp = 0; grp < groups; ++grp) {
            for (int64_t ci = 0; ci < groupIn; ++ci) {
                const int64_t channel = grp * groupIn + ci, og = channel / perOffsetGroup;
                const float* plane = x.data() + (b * c + channel) * h * w;
                for (int64_t t = 0; t < taps; ++t) {
                    const float* dy = offsets.data() + ((b * mOffsetGroups + og) * 2 * taps + 2 * t) * positions;
                    const float* dx = dy + positions;
                    const float* scale =
                        mask.empty() ? nullptr : mask.data() + ((b * mOffsetGroups + og) * taps + t) * positions;
                    for (int64_t p = 0; p < positions; ++p) {
                        const float sy =
                            static_cast<float>(p / ow * g.stride[0] - g.padBegin[0] + t / kw * g.dilation[0]) + dy[p];
                        const float sx =
                            static_cast<float>(p % ow * g.stride[1] - g.padBegin[1] + t % kw * g.dilation[1]) + dx[p];
                        col(ci * taps + t, p) = bilinearAt(plane, h, w, sy, sx) * (scale ? scale[p] : 1.0f);
                    }
                }
            }
            const Eigen::Map<const Matrix> wg(weights.data() + grp * groupOut * groupIn * taps, groupOut,
                                              groupIn * taps);
            const Matrix out = wg * col;
            for (int64_t mo = 0; mo < groupOut; ++mo)
                for (int64_t p = 0; p < positions; ++p) {
                    const int64_t channel = grp * groupOut + mo;
                    y[static_cast<size_t>((b * m + channel) * positions + p)] =
                        out(mo, p) + (bias.empty() ? 0.0f : bias[static_cast<size_t>(channel)]);
                }
        }
    ctx.setOutput(0, floatingTensor(xt.dtype(), g.outputShape, y));
    return Status::ok();
}

}  // namespace ql
