#include "core/exec/kernels/range.h"

#include <algorithm>
#include <cmath>

#include "core/exec/kernels/type_dispatch.h"

namespace ql {

Status RangeKernel::compute(KernelContext& ctx) {
    const Tensor& start = ctx.input(0);
    const DataType dtype = start.dtype();
    for (size_t i = 0; i < 3; ++i)
        if (ctx.input(i).elementCount() != 1 || ctx.input(i).dtype() != dtype)
            return ctx.fail("start, limit and delta must be scalars of one dtype");
    Status status = Status::ok();
    const bool known = visitNumeric(dtype, [&]<typename T>(T) {
        using A = typename ArithmeticOf<T>::type;
        const A first = toArithmetic(*start.data<T>());
        const A limit = toArithmetic(*ctx.input(1).data<T>());
        const A delta = toArithmetic(*ctx.input(2).data<T>());
        if (delta == A{}) {
            status = ctx.fail("delta must not be zero");
            return;
        }
        const double steps =
            std::ceil((static_cast<double>(limit) - static_cast<double>(first)) / static_cast<double>(delta));
        const auto n = static_cast<int64_t>(std::max(0.0, steps));
        T* out = ctx.allocateOutput(0, dtype, {n}).template data<T>();
        // Accumulate as ONNX's reference does (start + i * delta) so float outputs match it.
        for (int64_t i = 0; i < n; ++i) out[i] = fromArithmetic<T>(static_cast<A>(first + static_cast<A>(i) * delta));
    });
    if (!known) return ctx.fail(std::string("dtype ") + dataTypeName(dtype) + " is not supported");
    return status;
}

}  // namespace ql
