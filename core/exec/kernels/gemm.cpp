#include "core/exec/kernels/gemm.h"

#include "core/exec/kernels/type_dispatch.h"
#include "core/exec/onednn_util.h"

namespace ql {

namespace {

// Row-major [rows, cols] storage, or its transpose, as strides of the logical matrix.
Shape matrixStrides(int64_t rows, int64_t cols, bool transposed) {
    return transposed ? Shape{1, rows} : Shape{cols, 1};
}

// C broadcast to [M, N]: the strides of C's elements along M and N (0 for a broadcast axis).
Result<Shape> biasStrides(const KernelContext& ctx, const Shape& c, int64_t m, int64_t n) {
    const Shape full = Shape(2 - std::min<size_t>(c.size(), 2), 1);
    Shape s = full;
    s.insert(s.end(), c.begin(), c.end());
    if (c.size() > 2 || (s[0] != 1 && s[0] != m) || (s[1] != 1 && s[1] != n))
        return ctx.fail("C " + shapeString(c) + " does not broadcast to [" + std::to_string(m) + "," +
                        std::to_string(n) + "]");
    return Shape{s[0] == 1 ? 0 : s[1], s[1] == 1 ? 0 : 1};
}

template <typename T>
void fillFromBias(const T* c, const Shape& strides, int64_t m, int64_t n, T* y) {
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) y[i * n + j] = c[i * strides[0] + j * strides[1]];
}

struct GemmLoopArgs {
    int64_t m, n, k;
    bool transA, transB;
    float alpha, beta;
};

// The reference loop for double and integer types (accumulating in T, scaling in double).
template <typename T>
void gemmLoop(const GemmLoopArgs& g, const T* a, const T* b, const T* c, const Shape& cStrides, T* y) {
    for (int64_t i = 0; i < g.m; ++i)
        for (int64_t j = 0; j < g.n; ++j) {
            T acc{};
            for (int64_t p = 0; p < g.k; ++p)
                acc += a[g.transA ? p * g.m + i : i * g.k + p] * b[g.transB ? j * g.k + p : p * g.n + j];
            const double bias = c ? static_cast<double>(c[i * cStrides[0] + j * cStrides[1]]) : 0.0;
            y[i * g.n + j] = static_cast<T>(g.alpha * static_cast<double>(acc) + g.beta * bias);
        }
}

}  // namespace

Status GemmKernel::init(const KernelInit& info) {
    mAlpha = info.node.floatAttribute("alpha", 1.0f);
    mBeta = info.node.floatAttribute("beta", 1.0f);
    mTransA = info.node.intAttribute("transA", 0) != 0;
    mTransB = info.node.intAttribute("transB", 0) != 0;
    mConstantB = constantInputData(info, 1);
    return Status::ok();
}

Status GemmKernel::computeFloat(KernelContext& ctx, const Dims& d) {
    const bool hasC = ctx.hasInput(2) && mBeta != 0.0f;
    const Tensor a = asFloat(ctx.input(0)), b = asFloat(ctx.input(1));
    const bool constantB = cachable(mConstantB, ctx.input(1));
    const auto aDesc = onednn::stridedDesc({d.m, d.k}, matrixStrides(d.m, d.k, mTransA));
    Tensor y(DataType::Float, {d.m, d.n});
    if (hasC) {
        QL_ASSIGN_OR_RETURN(Shape cs, biasStrides(ctx, ctx.input(2).shape(), d.m, d.n));
        fillFromBias(asFloat(ctx.input(2)).data<float>(), cs, d.m, d.n, y.data<float>());
    }
    if (d.k == 0) {
        for (float& v : y.span<float>()) v = hasC ? v * mBeta : 0.0f;
        ctx.setOutput(0, fromFloat(y, ctx.input(0).dtype()));
        return Status::ok();
    }
    const Shape key = {d.m, d.n, d.k, hasC};
    auto it = mPlans.find(key);
    if (it == mPlans.end()) {
        const auto bDesc = onednn::stridedDesc({d.k, d.n}, matrixStrides(d.k, d.n, mTransB));
        it =
            mPlans.emplace(key, makeMatMulPlan(aDesc, bDesc, {d.m, d.n}, constantB, mAlpha, hasC ? mBeta : 0.0f)).first;
    }
    runMatMul(it->second, aDesc, a, b, y, constantB);
    ctx.setOutput(0, fromFloat(y, ctx.input(0).dtype()));
    return Status::ok();
}

Status GemmKernel::compute(KernelContext& ctx) {
    const Tensor& a = ctx.input(0);
    const Tensor& b = ctx.input(1);
    if (a.rank() != 2 || b.rank() != 2)
        return ctx.fail("A " + shapeString(a.shape()) + " and B " + shapeString(b.shape()) + " must be 2-D");
    if (a.dtype() != b.dtype() || (ctx.hasInput(2) && ctx.input(2).dtype() != a.dtype()))
        return ctx.fail("A, B and C must share one type");
    const Dims d{mTransA ? a.dim(1) : a.dim(0), mTransB ? b.dim(0) : b.dim(1), mTransA ? a.dim(0) : a.dim(1)};
    if ((mTransB ? b.dim(1) : b.dim(0)) != d.k)
        return ctx.fail("inner dimensions of A " + shapeString(a.shape()) + " and B " + shapeString(b.shape()) +
                        " differ (transA=" + std::to_string(mTransA) + ", transB=" + std::to_string(mTransB) + ")");
    if (d.m == 0 || d.n == 0) {
        ctx.setOutput(0, Tensor::zeros(a.dtype(), {d.m, d.n}));
        return Status::ok();
    }
    if (a.dtype() == DataType::Float || a.dtype() == DataType::Float16 || a.dtype() == DataType::BFloat16) {
        try {
            return computeFloat(ctx, d);
        } catch (const dnnl::error& e) {
            return ctx.fail(std::string("oneDNN could not run this Gemm: ") + e.what());
        }
    }
    Shape cs;
    if (ctx.hasInput(2)) {
        QL_ASSIGN_OR_RETURN(cs, biasStrides(ctx, ctx.input(2).shape(), d.m, d.n));
    }
    Tensor& y = ctx.allocateOutput(0, a.dtype(), {d.m, d.n});
    bool handled = false;
    visitNumeric(a.dtype(), [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
            const T* c = ctx.hasInput(2) ? ctx.input(2).data<T>() : nullptr;
            gemmLoop<T>(GemmLoopArgs{d.m, d.n, d.k, mTransA, mTransB, mAlpha, mBeta}, a.data<T>(), b.data<T>(), c, cs,
                        y.data<T>());
            handled = true;
        }
    });
    if (!handled) return ctx.fail(std::string("type ") + dataTypeName(a.dtype()) + " is not supported");
    return Status::ok();
}

}  // namespace ql
