#include "core/exec/kernels/conv_integer.h"

#include "core/exec/kernels/integer_convolution.h"
#include "core/exec/kernels/integer_util.h"

namespace ql {

Status ConvIntegerKernel::init(const KernelInit& info) {
    QL_ASSIGN_OR_RETURN(mAttrs, parseConvAttributes(info, false));
    return Status::ok();
}

Status ConvIntegerKernel::compute(KernelContext& ctx) {
    QL_RETURN_IF_ERROR(checkEightBit(ctx, 0, "x"));
    QL_RETURN_IF_ERROR(checkEightBit(ctx, 1, "w"));
    const Tensor &x = ctx.input(0), &w = ctx.input(1);
    if (w.rank() < 1) return ctx.fail("w must be [M, C/group, k...]");
    QL_ASSIGN_OR_RETURN(const std::vector<int32_t> xZero, readZeroPoints(ctx, 2, 1, "x_zero_point"));
    QL_ASSIGN_OR_RETURN(const std::vector<int32_t> wZero,
                        readZeroPoints(ctx, 3, static_cast<size_t>(w.dim(0)), "w_zero_point"));
    QL_ASSIGN_OR_RETURN(Tensor y, integerConvolution(ctx, mAttrs, {x, xZero[0], w, wZero, {}}));
    ctx.setOutput(0, std::move(y));
    return Status::ok();
}

}  // namespace ql
