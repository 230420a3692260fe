#include "core/exec/kernels/mean_variance_normalization.h"

#include <cmath>

#include "core/exec/kernels/elementwise_util.h"
#include "core/exec/kernels/normalization_util.h"

namespace ql {

namespace {

template <typename T>
void normalizeMeanVariance(T* data, int64_t rows, int64_t length) {
    parallelFor(rows, std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(1, length)),
                [&](int64_t begin, int64_t end) {
                    for (int64_t r = begin; r < end; ++r) {
                        T* row = data + r * length;
                        T sum = 0, squares = 0;
                        for (int64_t i = 0; i < length; ++i) sum += row[i], squares += row[i] * row[i];
                        const T n = static_cast<T>(std::max<int64_t>(1, length)), mean = sum / n;
                        const T deviation = std::sqrt(std::max(T(0), squares / n - mean * mean)) + T(1e-9);
                        for (int64_t i = 0; i < length; ++i) row[i] = (row[i] - mean) / deviation;
                    }
                });
}

}  // namespace

Status MeanVarianceNormalizationKernel::init(const KernelInit& info) {
    mAxes = info.node.intsAttribute("axes");
    if (!info.node.attribute("axes")) mAxes = {0, 2, 3};
    return Status::ok();
}

Status MeanVarianceNormalizationKernel::compute(KernelContext& ctx) {
    if (!ctx.hasInput(0)) return ctx.fail("needs an input");
    const DataType dtype = ctx.input(0).dtype();
    const Tensor x = promoteHalf(ctx.input(0));
    QL_ASSIGN_OR_RETURN(const std::vector<int64_t> axes, normalizeAxes(ctx, mAxes, static_cast<int64_t>(x.rank())));
    std::vector<bool> reduced(x.rank(), false);
    for (int64_t a : axes) reduced[static_cast<size_t>(a)] = true;
    const AxesToEnd moved = axesToEnd(x.shape(), reduced);
    Tensor rows = permutedTensor(x, moved.perm).clone();
    const bool ok = visitFloating(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        normalizeMeanVariance(rows.data<T>(), moved.rows, moved.length);
    });
    if (!ok) return unsupportedType(ctx, dtype);
    setOutputAs(ctx, 0, permutedTensor(rows, moved.inverse), dtype);
    return Status::ok();
}

}  // namespace ql
