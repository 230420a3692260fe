#include "core/exec/kernels/matmul.h"

#include "core/exec/kernels/type_dispatch.h"
#include "core/exec/onednn_util.h"

namespace ql {

namespace {

// Row-major strides where size-1 (broadcast) batch axes get stride 0, for the plain loop.
Shape broadcastStrides(const Shape& s) {
    Shape strides = onednn::rowMajorStrides(s);
    for (size_t d = 0; d + 2 < s.size(); ++d)
        if (s[d] == 1) strides[d] = 0;
    return strides;
}

template <typename T>
void matMulLoop(const MatMulShapes& s, const T* a, const T* b, T* y) {
    const size_t r = s.dst.size();
    const int64_t m = s.dst[r - 2], n = s.dst[r - 1], k = s.a[r - 1];
    const Shape as = broadcastStrides(s.a), bs = broadcastStrides(s.b);
    const int64_t batches = shapeElementCount(Shape(s.dst.begin(), s.dst.end() - 2));
    for (int64_t batch = 0; batch < batches; ++batch) {
        int64_t rest = batch, aOff = 0, bOff = 0;
        for (size_t d = r - 2; d-- > 0;) {
            const int64_t i = rest % s.dst[d];
            rest /= s.dst[d];
            aOff += i * as[d];
            bOff += i * bs[d];
        }
        T* out = y + batch * m * n;
        for (int64_t i = 0; i < m; ++i)
            for (int64_t j = 0; j < n; ++j) {
                T acc{};
                for (int64_t p = 0; p < k; ++p) acc += a[aOff + i * k + p] * b[bOff + p * n + j];
                out[i * n + j] = acc;
            }
    }
}

// When B is shared by every batch (its batch axes are all 1), the batches of A stack into one
// [batches * M, K] x [K, N] product over the same memory, which oneDNN runs far faster than many small ones
// (ViT's [197, 1, 192] x [192, 576]).
MatMulShapes foldedBatches(const MatMulShapes& s) {
    const size_t r = s.dst.size();
    if (r <= 2 || shapeElementCount(Shape(s.b.begin(), s.b.end() - 2)) != 1) return s;
    MatMulShapes f = s;
    const int64_t rows = shapeElementCount(Shape(s.dst.begin(), s.dst.end() - 1));
    f.a = {rows, s.a[r - 1]};
    f.b = {s.b[r - 2], s.b[r - 1]};
    f.dst = {rows, s.dst[r - 1]};
    return f;
}

}  // namespace

Result<MatMulShapes> matMulShapes(const KernelContext& ctx, const Shape& a, const Shape& b) {
    if (a.empty() || b.empty()) return ctx.fail("MatMul operands must have rank >= 1 (got a scalar)");
    MatMulShapes s{a, b, {}, {}};
    if (a.size() == 1) s.a.insert(s.a.begin(), 1);
    if (b.size() == 1) s.b.push_back(1);
    const size_t r = std::max(s.a.size(), s.b.size());
    s.a.insert(s.a.begin(), r - s.a.size(), 1);
    s.b.insert(s.b.begin(), r - s.b.size(), 1);
    if (s.a[r - 1] != s.b[r - 2])
        return ctx.fail("cannot multiply " + shapeString(a) + " by " + shapeString(b) + ": inner dimensions differ");
    for (size_t d = 0; d + 2 < r; ++d) {
        if (s.a[d] != s.b[d] && s.a[d] != 1 && s.b[d] != 1)
            return ctx.fail("batch dimensions of " + shapeString(a) + " and " + shapeString(b) + " do not broadcast");
        s.dst.push_back(s.a[d] == 1 ? s.b[d] : s.a[d]);
    }
    s.dst.push_back(s.a[r - 2]);
    s.dst.push_back(s.b[r - 1]);
    s.output = Shape(s.dst.begin(), s.dst.end() - 2);
    if (a.size() > 1) s.output.push_back(s.a[r - 2]);
    if (b.size() > 1) s.output.push_back(s.b[r - 1]);
    return s;
}

Status MatMulKernel::init(const KernelInit& info) {
    mConstantB = constantInputData(info, 1);
    return Status::ok();
}

Status MatMulKernel::computeFloat(KernelContext& ctx, const MatMulShapes& shapes) {
    const MatMulShapes s = foldedBatches(shapes);
    const Tensor a = asFloat(ctx.input(0)), b = asFloat(ctx.input(1));
    Shape key = s.a;
    key.insert(key.end(), s.b.begin(), s.b.end());
    auto it = mPlans.find(key);
    const bool constantB = cachable(mConstantB, ctx.input(1));
    if (it == mPlans.end())
        it = mPlans.emplace(key, makeMatMulPlan(onednn::plainDesc(s.a), onednn::plainDesc(s.b), s.dst, constantB, 1, 0))
                 .first;
    Tensor y(DataType::Float, s.dst);
    runMatMul(it->second, onednn::plainDesc(s.a), a, b, y, constantB);
    ctx.setOutput(0, fromFloat(y, ctx.input(0).dtype()).reshaped(s.output));
    return Status::ok();
}

Status MatMulKernel::compute(KernelContext& ctx) {
    const Tensor& a = ctx.input(0);
    const Tensor& b = ctx.input(1);
    if (a.dtype() != b.dtype())
        return ctx.fail(std::string("A is ") + dataTypeName(a.dtype()) + " but B is " + dataTypeName(b.dtype()));
    QL_ASSIGN_OR_RETURN(MatMulShapes s, matMulShapes(ctx, a.shape(), b.shape()));
    if (shapeElementCount(s.dst) == 0 || s.a.back() == 0) {
        ctx.setOutput(0, Tensor::zeros(a.dtype(), s.output));
        return Status::ok();
    }
    if (a.dtype() == DataType::Float || a.dtype() == DataType::Float16 || a.dtype() == DataType::BFloat16) {
        try {
            return computeFloat(ctx, s);
        } catch (const dnnl::error& e) {
            return ctx.fail(std::string("oneDNN could not run this MatMul: ") + e.what());
        }
    }
    Tensor& y = ctx.allocateOutput(0, a.dtype(), s.output);
    bool handled = false;
    visitNumeric(a.dtype(), [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
            matMulLoop<T>(s, a.data<T>(), b.data<T>(), y.data<T>());
            handled = true;
        }
    });
    if (!handled) return ctx.fail(std::string("type ") + dataTypeName(a.dtype()) + " is not supported");
    return Status::ok();
}

}  // namespace ql
