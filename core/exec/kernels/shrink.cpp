#include "core/exec/kernels/shrink.h"

#include "core/exec/kernels/elementwise_util.h"

namespace ql {

Status ShrinkKernel::init(const KernelInit& info) {
    mLambd = info.node.floatAttribute("lambd", 0.5f);
    mBias = info.node.floatAttribute("bias", 0.0f);
    return Status::ok();
}

Status ShrinkKernel::compute(KernelContext& ctx) {
    if (!ctx.hasInput(0)) return ctx.fail("needs an input");
    const DataType dtype = ctx.input(0).dtype();
    const Tensor x = promoteHalf(ctx.input(0));
    Tensor y(x.dtype(), x.shape());
    bool ok = false;
    visitComputeType(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (!std::is_same_v<T, bool>) {
            // Compared and shifted in double so integer inputs follow the float attributes exactly.
            const double lambd = mLambd, bias = mBias;
            unaryMap(x.data<T>(), y.data<T>(), x.elementCount(), [=](T v) {
                const double d = static_cast<double>(v);
                return static_cast<T>(d < -lambd ? d + bias : d > lambd ? d - bias : 0.0);
            });
            ok = true;
        }
    });
    if (!ok) return unsupportedType(ctx, dtype);
    setOutputAs(ctx, 0, std::move(y), dtype);
    return Status::ok();
}

}  // namespace ql
