#include "core/exec/kernels/bit_shift.h"

#include "core/exec/kernels/elementwise_util.h"

namespace ql {

Status BitShiftKernel::init(const KernelInit& info) {
    const std::string direction = info.node.stringAttribute("direction");
    if (direction != "LEFT" && direction != "RIGHT") return info.fail("direction must be LEFT or RIGHT");
    mLeft = direction == "LEFT";
    return Status::ok();
}

Status BitShiftKernel::compute(KernelContext& ctx) {
    if (!ctx.hasInput(0) || !ctx.hasInput(1)) return ctx.fail("needs two inputs");
    const Tensor &a = ctx.input(0), &b = ctx.input(1);
    if (a.dtype() != b.dtype()) return ctx.fail("inputs have different element types");
    const Tensor* ins[] = {&a, &b};
    QL_ASSIGN_OR_RETURN(Shape shape, broadcastInputs(ctx, ins));
    Tensor& y = ctx.allocateOutput(0, a.dtype(), shape);
    bool ok = false;
    visitComputeType(a.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_unsigned_v<T> && !std::is_same_v<T, bool>) {
            constexpr T bits = sizeof(T) * 8;
            if (mLeft)
                broadcastBinary<T, T>(a, b, y, [](T x, T s) { return s >= bits ? T(0) : static_cast<T>(x << s); });
            else
                broadcastBinary<T, T>(a, b, y, [](T x, T s) { return s >= bits ? T(0) : static_cast<T>(x >> s); });
            ok = true;
        }
    });
    return ok ? Status::ok() : unsupportedType(ctx, a.dtype());
}

}  // namespace ql
