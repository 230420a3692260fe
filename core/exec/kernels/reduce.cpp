#include "core/exec/kernels/reduce.h"

#include <Eigen/Core>
#include <cmath>
#include <limits>
#include <utility>

#include "core/exec/kernels/elementwise_util.h"

namespace ql {

namespace {

using Op = ReduceKernel::Op;

constexpr std::pair<std::string_view, Op> kOps[] = {
    {"ReduceSum", Op::Sum},
    {"ReduceMean", Op::Mean},
    {"ReduceMax", Op::Max},
    {"ReduceMin", Op::Min},
    {"ReduceProd", Op::Prod},
    {"ReduceL1", Op::L1},
    {"ReduceL2", Op::L2},
    {"ReduceLogSum", Op::LogSum},
    {"ReduceLogSumExp", Op::LogSumExp},
    {"ReduceSumSquare", Op::SumSquare},
};

enum class Fold { Sum, Prod, Max, Min };

Fold foldOf(Op op) {
    switch (op) {
        case Op::Max:
            return Fold::Max;
        case Op::Min:
            return Fold::Min;
        case Op::Prod:
            return Fold::Prod;
        default:
            return Fold::Sum;
    }
}

template <typename T>
T identityOf(Fold fold) {
    switch (fold) {
        case Fold::Sum:
            return T(0);
        case Fold::Prod:
            return T(1);
        case Fold::Max:
            return std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity()
                                                        : std::numeric_limits<T>::lowest();
        case Fold::Min:
            return std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity()
                                                        : std::numeric_limits<T>::max();
    }
    return T(0);
}

template <typename T, Fold F>
T combine(T a, T b) {
    if constexpr (F == Fold::Sum) return wrapping(a, b, std::plus<>());
    if constexpr (F == Fold::Prod) return wrapping(a, b, std::multiplies<>());
    if constexpr (F == Fold::Max) return a > b ? a : b;
    if constexpr (F == Fold::Min) return a < b ? a : b;
}

// row[i] = fold(row[i], line[i]); the fold is a template argument so the loop vectorizes.
template <typename T, Fold F>
void foldLine(T* __restrict row, const T* __restrict line, int64_t n) {
#pragma omp simd
    for (int64_t i = 0; i < n; ++i) row[i] = combine<T, F>(row[i], line[i]);
}

template <typename T>
void foldLine(Fold fold, T* row, const T* line, int64_t n) {
    switch (fold) {
        case Fold::Sum:
            return foldLine<T, Fold::Sum>(row, line, n);
        case Fold::Prod:
            return foldLine<T, Fold::Prod>(row, line, n);
        case Fold::Max:
            return foldLine<T, Fold::Max>(row, line, n);
        case Fold::Min:
            return foldLine<T, Fold::Min>(row, line, n);
    }
}

// [outer, r, inner] -> [outer, inner] folding the middle axis.
template <typename T>
Tensor foldAxis(const Tensor& in, int64_t outer, int64_t r, int64_t inner, Fold fold) {
    Tensor out(in.dtype(), Shape{outer, inner});
    const T* src = in.data<T>();
    T* dst = out.data<T>();
    const T init = identityOf<T>(fold);
    const int64_t grain = std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(1, r * inner));
    parallelFor(outer, grain, [&](int64_t begin, int64_t end) {
        for (int64_t o = begin; o < end; ++o) {
            const T* block = src + o * r * inner;
            T* row = dst + o * inner;
            if (inner == 1 && std::is_floating_point_v<T> && r > 0) {
                Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>> v(block, r);
                *row = fold == Fold::Sum    ? v.sum()
                       : fold == Fold::Prod ? v.prod()
                       : fold == Fold::Max  ? v.maxCoeff()
                                            : v.minCoeff();
                continue;
            }
            std::fill(row, row + inner, init);
            for (int64_t k = 0; k < r; ++k) foldLine(fold, row, block + k * inner, inner);
        }
    });
    return out;
}

// Folds every reduced axis (reduced[d]), merging adjacent reduced and adjacent kept axes into one pass.
template <typename T>
Tensor foldAxes(Tensor t, const std::vector<bool>& reduced, Fold fold) {
    std::vector<std::pair<int64_t, bool>> groups;  // (size, reduced)
    for (size_t d = 0; d < reduced.size(); ++d) {
        const int64_t size = t.shape()[d];
        if (size == 1) continue;
        if (!groups.empty() && groups.back().second == reduced[d])
            groups.back().first *= size;
        else
            groups.emplace_back(size, reduced[d]);
    }
    for (size_t g = groups.size(); g-- > 0;) {
        if (!groups[g].second) continue;
        int64_t outer = 1, inner = 1;
        for (size_t h = 0; h < groups.size(); ++h) (h < g ? outer : inner) *= h == g ? 1 : groups[h].first;
        t = foldAxis<T>(t, outer, groups[g].first, inner, fold);
        groups[g].first = 1;
    }
    return t;
}

template <typename T, typename F>
Tensor map(const Tensor& in, F f) {
    Tensor out(in.dtype(), in.shape());
    unaryMap(in.data<T>(), out.data<T>(), in.elementCount(), f);
    return out;
}

template <typename T>
Tensor reduce(Op op, const Tensor& x, const std::vector<bool>& reduced, const Shape& keptShape) {
    Tensor t = x;
    if (op == Op::L1) t = map<T>(x, [](T v) { return v < T(0) ? static_cast<T>(T(0) - v) : v; });
    if (op == Op::L2 || op == Op::SumSquare) t = map<T>(x, [](T v) { return static_cast<T>(v * v); });
    Tensor maxima;
    if (op == Op::LogSumExp) {  // exp(x - max) keeps the sum finite
        maxima = foldAxes<T>(x, reduced, Fold::Max).reshaped(keptShape);
        t = Tensor(x.dtype(), x.shape());
        broadcastBinary<T, T>(x, maxima, t, [](T v, T m) {
            return std::isinf(static_cast<double>(m)) ? static_cast<T>(std::exp(static_cast<double>(v)))
                                                      : static_cast<T>(std::exp(static_cast<double>(v - m)));
        });
    }
    Tensor y = foldAxes<T>(t, reduced, foldOf(op));
    if (y.rawData() == x.rawData()) y = x.clone();
    T* p = y.data<T>();
    const int64_t n = y.elementCount();
    int64_t count = 1;
    for (size_t d = 0; d < reduced.size(); ++d) count *= reduced[d] ? x.shape()[d] : 1;
    for (int64_t i = 0; i < n; ++i) {
        const double v = static_cast<double>(p[i]);
        switch (op) {
            case Op::Mean:
                p[i] = static_cast<T>(p[i] / static_cast<T>(count));
                break;
            case Op::L2:
                p[i] = static_cast<T>(std::sqrt(v));
                break;
            case Op::LogSum:
                p[i] = static_cast<T>(std::log(v));
                break;
            case Op::LogSumExp: {
                const double m = static_cast<double>(maxima.data<T>()[i]);
                p[i] = static_cast<T>(std::log(v) + (std::isinf(m) ? 0.0 : m));
                break;
            }
            default:
                break;
        }
    }
    return y;
}

}  // namespace

Status ReduceKernel::init(const KernelInit& info) {
    for (const auto& [name, op] : kOps)
        if (name == info.node.opType) mOp = op;
    mAxesFromInput = info.opset >= 18 || (mOp == Op::Sum && info.opset >= 13);
    mKeepDims = info.node.intAttribute("keepdims", 1) != 0;
    mNoopWithEmptyAxes = info.node.intAttribute("noop_with_empty_axes", 0) != 0;
    mAxes = info.node.intsAttribute("axes");
    return Status::ok();
}

Status ReduceKernel::compute(KernelContext& ctx) {
    if (!ctx.hasInput(0)) return ctx.fail("needs an input");
    const DataType dtype = ctx.input(0).dtype();
    const Tensor x = promoteHalf(ctx.input(0));
    const int64_t rank = static_cast<int64_t>(x.rank());
    std::vector<int64_t> axes = mAxes;
    if (mAxesFromInput && ctx.hasInput(1)) {
        QL_ASSIGN_OR_RETURN(axes, readInt64Input(ctx, 1));
    }
    if (axes.empty() && mNoopWithEmptyAxes) {
        ctx.setOutput(0, ctx.input(0));
        return Status::ok();
    }
    QL_ASSIGN_OR_RETURN(std::vector<int64_t> normalized, normalizeAxes(ctx, axes, rank));
    std::vector<bool> reduced(static_cast<size_t>(rank), axes.empty());
    for (int64_t a : normalized) reduced[static_cast<size_t>(a)] = true;
    Shape keptShape, outShape;
    for (size_t d = 0; d < reduced.size(); ++d) {
        keptShape.push_back(reduced[d] ? 1 : x.shape()[d]);
        if (!reduced[d] || mKeepDims) outShape.push_back(keptShape.back());
    }
    Tensor y;
    const bool ok = x.dtype() != DataType::Bool && visitComputeType(x.dtype(), [&](auto tag) {
                        using T = typename decltype(tag)::type;
                        if constexpr (!std::is_same_v<T, bool>) y = reduce<T>(mOp, x, reduced, keptShape);
                    });
    if (!ok) return unsupportedType(ctx, dtype);
    setOutputAs(ctx, 0, y.reshaped(outShape), dtype);
    return Status::ok();
}

}  // namespace ql
