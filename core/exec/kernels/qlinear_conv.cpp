#include "core/exec/kernels/qlinear_conv.h"

#include "core/exec/kernels/integer_convolution.h"
#include "core/exec/kernels/integer_util.h"

namespace ql {

namespace {

enum Input : size_t { kX = 0, kXScale, kXZero, kW, kWScale, kWZero, kYScale, kYZero, kBias };

}  // namespace

Status QLinearConvKernel::init(const KernelInit& info) {
    QL_ASSIGN_OR_RETURN(mAttrs, parseConvAttributes(info, false));
    return Status::ok();
}

Status QLinearConvKernel::compute(KernelContext& ctx) {
    QL_RETURN_IF_ERROR(checkEightBit(ctx, kX, "x"));
    QL_RETURN_IF_ERROR(checkEightBit(ctx, kW, "w"));
    QL_RETURN_IF_ERROR(checkEightBit(ctx, kYZero, "y_zero_point"));
    const Tensor &x = ctx.input(kX), &w = ctx.input(kW);
    if (w.rank() < 1) return ctx.fail("w must be [M, C/group, k...]");
    const auto channels = static_cast<size_t>(w.dim(0));
    QL_ASSIGN_OR_RETURN(const std::vector<int32_t> xZero, readZeroPoints(ctx, kXZero, 1, "x_zero_point"));
    QL_ASSIGN_OR_RETURN(const std::vector<int32_t> wZero, readZeroPoints(ctx, kWZero, channels, "w_zero_point"));
    QL_ASSIGN_OR_RETURN(const std::vector<int32_t> yZero, readZeroPoints(ctx, kYZero, 1, "y_zero_point"));
    QL_ASSIGN_OR_RETURN(const std::vector<float> xScale, readScales(ctx, kXScale, 1, "x_scale"));
    QL_ASSIGN_OR_RETURN(const std::vector<float> wScale, readScales(ctx, kWScale, channels, "w_scale"));
    QL_ASSIGN_OR_RETURN(const std::vector<float> yScale, readScales(ctx, kYScale, 1, "y_scale"));
    std::vector<int32_t> bias;
    if (ctx.hasInput(kBias)) {
        const Tensor& b = ctx.input(kBias);
        if (b.dtype() != DataType::Int32 || static_cast<size_t>(b.elementCount()) != channels)
            return ctx.fail("B must be INT32 with one value per output channel (" + std::to_string(channels) + ")");
        bias.assign(b.data<int32_t>(), b.data<int32_t>() + channels);
    }
    QL_ASSIGN_OR_RETURN(const Tensor acc, integerConvolution(ctx, mAttrs, {x, xZero[0], w, wZero, bias}));
    std::vector<float> multipliers(channels);
    for (size_t m = 0; m < channels; ++m) multipliers[m] = xScale[0] * wScale[m] / yScale[0];
    const Requantizer requantize{ctx.input(kYZero).dtype(), yZero[0]};
    Tensor& y = ctx.allocateOutput(0, requantize.type, acc.shape());
    requantize.apply(acc, multipliers, acc.elementCount() / std::max<int64_t>(1, acc.dim(0) * acc.dim(1)), y);
    return Status::ok();
}

}  // namespace ql
