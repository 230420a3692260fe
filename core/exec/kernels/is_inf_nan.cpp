#include "core/exec/kernels/is_inf_nan.h"

#include <cmath>

#include "core/exec/kernels/elementwise_util.h"

namespace ql {

Status IsInfNanKernel::init(const KernelInit& info) {
    mNan = info.node.opType == "IsNaN";
    mNegative = info.node.intAttribute("detect_negative", 1) != 0;
    mPositive = info.node.intAttribute("detect_positive", 1) != 0;
    return Status::ok();
}

Status IsInfNanKernel::compute(KernelContext& ctx) {
    if (!ctx.hasInput(0)) return ctx.fail("needs an input");
    const Tensor x = promoteHalf(ctx.input(0));
    Tensor& y = ctx.allocateOutput(0, DataType::Bool, x.shape());
    const bool neg = mNegative, pos = mPositive;
    const bool ok = visitFloating(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        if (mNan)
            unaryMap(x.data<T>(), y.data<bool>(), x.elementCount(), [](T v) { return std::isnan(v); });
        else
            unaryMap(x.data<T>(), y.data<bool>(), x.elementCount(),
                     [=](T v) { return std::isinf(v) && (v > 0 ? pos : neg); });
    });
    return ok ? Status::ok() : unsupportedType(ctx, ctx.input(0).dtype());
}

}  // namespace ql
