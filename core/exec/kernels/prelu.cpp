#include "core/exec/kernels/prelu.h"

#include "core/exec/kernels/elementwise_util.h"

namespace ql {

Status PReluKernel::compute(KernelContext& ctx) {
    if (!ctx.hasInput(0) || !ctx.hasInput(1)) return ctx.fail("needs inputs X and slope");
    const DataType dtype = ctx.input(0).dtype();
    if (ctx.input(1).dtype() != dtype)
        return ctx.fail(std::string("slope has element type ") + dataTypeName(ctx.input(1).dtype()) + ", X has " +
                        dataTypeName(dtype));
    const Tensor x = promoteHalf(ctx.input(0)), slope = promoteHalf(ctx.input(1));
    const Tensor* ins[] = {&x, &slope};
    QL_ASSIGN_OR_RETURN(Shape shape, broadcastInputs(ctx, ins));
    if (shape != x.shape())
        return ctx.fail("slope of shape " + shapeString(slope.shape()) + " does not broadcast to X of shape " +
                        shapeString(x.shape()));
    Tensor y(x.dtype(), shape);
    bool ok = false;
    visitComputeType(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_signed_v<T> || std::is_floating_point_v<T>) {
            broadcastBinary<T, T>(x, slope, y, [](T v, T s) { return v < T(0) ? static_cast<T>(s * v) : v; });
            ok = true;
        } else if constexpr (!std::is_same_v<T, bool>) {  // unsigned: never negative
            broadcastBinary<T, T>(x, slope, y, [](T v, T) { return v; });
            ok = true;
        }
    });
    if (!ok) return unsupportedType(ctx, dtype);
    setOutputAs(ctx, 0, std::move(y), dtype);
    return Status::ok();
}

}  // namespace ql
