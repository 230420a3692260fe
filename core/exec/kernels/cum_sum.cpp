#include "core/exec/kernels/cum_sum.h"

#include "core/exec/kernels/elementwise_util.h"

namespace ql {

namespace {

// Running sums over the middle axis of [outer, n, inner], each inner position at once.
template <typename T>
void cumSum(const T* x, T* y, AxisSplit s, bool exclusive, bool reverse) {
    parallelFor(s.outer, 1, [&](int64_t begin, int64_t end) {
        std::vector<T> acc(static_cast<size_t>(s.inner));
        for (int64_t o = begin; o < end; ++o) {
            std::fill(acc.begin(), acc.end(), T(0));
            for (int64_t step = 0; step < s.axis; ++step) {
                const int64_t k = reverse ? s.axis - 1 - step : step;
                const int64_t base = (o * s.axis + k) * s.inner;
                for (int64_t i = 0; i < s.inner; ++i) {
                    const T v = x[base + i];
                    T& a = acc[static_cast<size_t>(i)];
                    if (exclusive) {
                        y[base + i] = a;
                        a = wrapping(a, v, std::plus<>());
                    } else {
                        a = wrapping(a, v, std::plus<>());
                        y[base + i] = a;
                    }
                }
            }
        }
    });
}

}  // namespace

Status CumSumKernel::init(const KernelInit& info) {
    mExclusive = info.node.intAttribute("exclusive", 0) != 0;
    mReverse = info.node.intAttribute("reverse", 0) != 0;
    return Status::ok();
}

Status CumSumKernel::compute(KernelContext& ctx) {
    if (!ctx.hasInput(0) || !ctx.hasInput(1)) return ctx.fail("needs inputs x and axis");
    const DataType dtype = ctx.input(0).dtype();
    const Tensor x = promoteHalf(ctx.input(0));
    QL_ASSIGN_OR_RETURN(std::vector<int64_t> axisValues, readInt64Input(ctx, 1));
    if (axisValues.size() != 1) return ctx.fail("axis must be a single value");
    const auto axis = normalizeAxis(axisValues[0], static_cast<int64_t>(x.rank()));
    if (!axis)
        return ctx.fail("axis " + std::to_string(axisValues[0]) + " is out of range for shape " +
                        shapeString(x.shape()));
    Tensor y(x.dtype(), x.shape());
    bool ok = false;
    visitComputeType(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (!std::is_same_v<T, bool>) {
            cumSum<T>(x.data<T>(), y.data<T>(), splitAtAxis(x.shape(), *axis), mExclusive, mReverse);
            ok = true;
        }
    });
    if (!ok) return unsupportedType(ctx, dtype);
    setOutputAs(ctx, 0, std::move(y), dtype);
    return Status::ok();
}

}  // namespace ql
