#include "core/exec/kernels/mod.h"

#include <cmath>

#include "core/exec/kernels/elementwise_util.h"

namespace ql {

namespace {

template <typename T>
T truncatedMod(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) {
        return std::fmod(a, b);
    } else {
        if (b == 0) return 0;
        if constexpr (std::is_signed_v<T>)
            if (b == -1) return 0;  // avoids the INT_MIN % -1 trap
        return static_cast<T>(a % b);
    }
}

template <typename T>
T flooredMod(T a, T b) {
    const T r = truncatedMod(a, b);
    if constexpr (std::is_signed_v<T> || std::is_floating_point_v<T>)
        if (r != 0 && ((r < 0) != (b < 0))) return static_cast<T>(r + b);
    return r;
}

}  // namespace

Status ModKernel::init(const KernelInit& info) {
    mFmod = info.node.intAttribute("fmod", 0) != 0;
    return Status::ok();
}

Status ModKernel::compute(KernelContext& ctx) {
    QL_ASSIGN_OR_RETURN(BinaryOperands operands, binaryOperands(ctx));
    const Tensor& a = operands.a;
    const Tensor& b = operands.b;
    const Shape& shape = operands.shape;
    const DataType dtype = ctx.input(0).dtype();  // the output type (a and b may be promoted to float)
    Tensor y(a.dtype(), shape);
    bool ok = false;
    visitComputeType(a.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (!std::is_same_v<T, bool>) {
            if (mFmod)
                broadcastBinary<T, T>(a, b, y, [](T x, T z) { return truncatedMod(x, z); });
            else
                broadcastBinary<T, T>(a, b, y, [](T x, T z) { return flooredMod(x, z); });
            ok = true;
        }
    });
    if (!ok) return unsupportedType(ctx, dtype);
    setOutputAs(ctx, 0, std::move(y), dtype);
    return Status::ok();
}

}  // namespace ql
