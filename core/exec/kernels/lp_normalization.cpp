#include "core/exec/kernels/lp_normalization.h"

#include <cmath>

#include "core/exec/kernels/elementwise_util.h"

namespace ql {

namespace {

// Each line of `length` values `inner` apart divided by its L1 or L2 norm.
template <typename T>
void normalizeLines(const T* x, T* y, int64_t outer, int64_t length, int64_t inner, int64_t p) {
    parallelFor(outer * inner, std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(1, length)),
                [&](int64_t begin, int64_t end) {
                    for (int64_t line = begin; line < end; ++line) {
                        const int64_t base = line / inner * length * inner + line % inner;
                        T norm = 0;
                        for (int64_t i = 0; i < length; ++i) {
                            const T v = x[base + i * inner];
                            norm += p == 1 ? std::abs(v) : v * v;
                        }
                        if (p == 2) norm = std::sqrt(norm);
                        for (int64_t i = 0; i < length; ++i)
                            y[base + i * inner] = norm == T(0) ? T(0) : x[base + i * inner] / norm;
                    }
                });
}

}  // namespace

Status LpNormalizationKernel::init(const KernelInit& info) {
    mAxis = info.node.intAttribute("axis", -1);
    mP = info.node.intAttribute("p", 2);
    if (mP != 1 && mP != 2) return info.fail("p must be 1 or 2, not " + std::to_string(mP));
    return Status::ok();
}

Status LpNormalizationKernel::compute(KernelContext& ctx) {
    if (!ctx.hasInput(0)) return ctx.fail("needs an input");
    const DataType dtype = ctx.input(0).dtype();
    const Tensor x = promoteHalf(ctx.input(0));
    const auto axis = normalizeAxis(mAxis, static_cast<int64_t>(x.rank()));
    if (!axis) return ctx.fail("axis " + std::to_string(mAxis) + " is out of range for " + shapeString(x.shape()));
    int64_t outer = 1, inner = 1;
    for (size_t d = 0; d < x.rank(); ++d)
        if (static_cast<int64_t>(d) < *axis)
            outer *= x.dim(d);
        else if (static_cast<int64_t>(d) > *axis)
            inner *= x.dim(d);
    Tensor y(x.dtype(), x.shape());
    const bool ok = visitFloating(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        normalizeLines(x.data<T>(), y.data<T>(), outer, x.dim(static_cast<size_t>(*axis)), inner, mP);
    });
    if (!ok) return unsupportedType(ctx, dtype);
    setOutputAs(ctx, 0, std::move(y), dtype);
    return Status::ok();
}

}  // namespace ql
