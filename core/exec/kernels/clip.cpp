#include "core/exec/kernels/clip.h"

#include <Eigen/Core>
#include <limits>

#include "core/exec/kernels/elementwise_util.h"

namespace ql {

namespace {

// The bound from optional scalar input `i`, else `fallback`.
template <typename T>
Result<T> bound(const KernelContext& ctx, size_t i, T fallback) {
    if (!ctx.hasInput(i)) return fallback;
    const Tensor& b = ctx.input(i);
    if (b.elementCount() != 1)
        return ctx.fail(std::string(i == 1 ? "min" : "max") + " must be a scalar, got shape " + shapeString(b.shape()));
    if (b.dtype() != ctx.input(0).dtype())
        return ctx.fail(std::string(i == 1 ? "min" : "max") + " has element type " + dataTypeName(b.dtype()) +
                        ", the input has " + dataTypeName(ctx.input(0).dtype()));
    return static_cast<T>(promoteHalf(b).data<T>()[0]);
}

template <typename T>
void clip(const Tensor& x, Tensor& y, T lo, T hi) {
    if constexpr (std::is_floating_point_v<T>) {
        using Array = Eigen::Array<T, Eigen::Dynamic, 1>;
        parallelFor(x.elementCount(), kElementwiseGrain, [&](int64_t b, int64_t e) {
            Eigen::Map<Array>(y.data<T>() + b, e - b) = Eigen::Map<const Array>(x.data<T>() + b, e - b).max(lo).min(hi);
        });
    } else {
        unaryMap(x.data<T>(), y.data<T>(), x.elementCount(), [=](T v) { return std::min(std::max(v, lo), hi); });
    }
}

}  // namespace

Status ClipKernel::init(const KernelInit& info) {
    mBoundsAreInputs = info.opset >= 11;
    mMin = info.node.floatAttribute("min", std::numeric_limits<float>::lowest());
    mMax = info.node.floatAttribute("max", std::numeric_limits<float>::max());
    return Status::ok();
}

Status ClipKernel::compute(KernelContext& ctx) {
    if (!ctx.hasInput(0)) return ctx.fail("needs an input");
    const DataType dtype = ctx.input(0).dtype();
    const Tensor x = promoteHalf(ctx.input(0));
    Tensor y(x.dtype(), x.shape());
    Status status;
    const bool known = visitComputeType(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (!std::is_same_v<T, bool>) {
            T lo = std::numeric_limits<T>::lowest(), hi = std::numeric_limits<T>::max();
            if (!mBoundsAreInputs) {
                lo = static_cast<T>(mMin);
                hi = static_cast<T>(mMax);
            } else {
                auto l = bound<T>(ctx, 1, lo), h = bound<T>(ctx, 2, hi);
                if (!l.isOk()) status = l.status();
                if (!h.isOk()) status = h.status();
                if (!status.isOk()) return;
                lo = l.value();
                hi = h.value();
            }
            clip<T>(x, y, lo, hi);
        } else {
            status = unsupportedType(ctx, dtype);
        }
    });
    if (!known) return unsupportedType(ctx, dtype);
    QL_RETURN_IF_ERROR(status);
    setOutputAs(ctx, 0, std::move(y), dtype);
    return Status::ok();
}

}  // namespace ql
