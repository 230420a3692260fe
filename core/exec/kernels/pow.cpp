#include "core/exec/kernels/pow.h"

#include <Eigen/Core>
#include <cmath>

#include "core/exec/kernels/elementwise_util.h"

namespace ql {

namespace {

// x^2, x^1, x^0.5 with a single float exponent: the common cases in exported normalization layers.
template <typename T>
bool powScalarFastPath(const Tensor& x, const Tensor& e, Tensor& y) {
    if (e.elementCount() != 1 || e.rank() > x.rank()) return false;
    using Array = Eigen::Array<T, Eigen::Dynamic, 1>;
    const double p = e.toFloats()[0];
    Eigen::Map<const Array> in(x.data<T>(), x.elementCount());
    Eigen::Map<Array> out(y.data<T>(), y.elementCount());
    if (p == 2.0)
        out = in.square();
    else if (p == 1.0)
        out = in;
    else if (p == 0.5)
        out = in.sqrt();
    else
        return false;
    return true;
}

template <typename T, typename E>
void pow(const Tensor& x, const Tensor& e, Tensor& y) {
    if constexpr (std::is_floating_point_v<T> && std::is_floating_point_v<E>)
        if (powScalarFastPath<T>(x, e, y)) return;
    broadcastBinary(x.data<T>(), x.shape(), e.data<E>(), e.shape(), y.data<T>(), y.shape(), [](T a, E b) {
        if constexpr (std::is_floating_point_v<T>)
            return static_cast<T>(std::pow(a, static_cast<T>(b)));
        else
            return static_cast<T>(std::pow(static_cast<double>(a), static_cast<double>(b)));
    });
}

}  // namespace

Status PowKernel::compute(KernelContext& ctx) {
    if (!ctx.hasInput(0) || !ctx.hasInput(1)) return ctx.fail("needs two inputs");
    const DataType dtype = ctx.input(0).dtype();
    const Tensor x = promoteHalf(ctx.input(0)), e = promoteHalf(ctx.input(1));
    const Tensor* ins[] = {&x, &e};
    QL_ASSIGN_OR_RETURN(Shape shape, broadcastInputs(ctx, ins));
    Tensor y(x.dtype(), shape);
    bool ok = false;
    visitComputeType(x.dtype(), [&](auto baseTag) {
        using T = typename decltype(baseTag)::type;
        if constexpr (!std::is_same_v<T, bool> && (std::is_floating_point_v<T> || sizeof(T) >= 4))
            ok = visitComputeType(e.dtype(),
                                  [&](auto expTag) {
                                      using E = typename decltype(expTag)::type;
                                      if constexpr (!std::is_same_v<E, bool>) pow<T, E>(x, e, y);
                                  }) &&
                 e.dtype() != DataType::Bool;
    });
    if (!ok)
        return ctx.fail(std::string("does not support base type ") + dataTypeName(dtype) + " with exponent type " +
                        dataTypeName(ctx.input(1).dtype()));
    setOutputAs(ctx, 0, std::move(y), dtype);
    return Status::ok();
}

}  // namespace ql
