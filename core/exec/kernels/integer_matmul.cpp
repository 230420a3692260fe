#include "core/exec/kernels/integer_matmul.h"

#include "core/exec/kernels/copy_util.h"
#include "core/exec/kernels/integer_util.h"

namespace ql {

namespace {

// A's shape as [..., M, K] and B's as [..., K, N]: a 1-D A is one row, a 1-D B one column.
Shape asMatrixA(const Shape& s) {
    return s.size() == 1 ? Shape{1, s[0]} : s;
}
Shape asMatrixB(const Shape& s) {
    return s.size() == 1 ? Shape{s[0], 1} : s;
}

// Element offset of batch entry `index` of `out` batch dims in an operand with batch dims `dims` (right-aligned,
// broadcast where 1) and matrices of `matrix` elements.
int64_t batchOffset(int64_t index, const Shape& out, const Shape& dims, int64_t matrix) {
    int64_t offset = 0, stride = matrix;
    for (size_t i = out.size(); i-- > 0;) {
        const int64_t coordinate = index % out[i];
        index /= out[i];
        const size_t shift = out.size() - dims.size();
        if (i >= shift && dims[i - shift] != 1) offset += coordinate * stride;
        if (i >= shift) stride *= dims[i - shift];
    }
    return offset;
}

}  // namespace

Result<std::pair<int64_t, int64_t>> integerMatMulSize(const KernelContext& ctx, const Tensor& a, const Tensor& b) {
    if (a.rank() < 1 || b.rank() < 1) return ctx.fail("A and B must have rank 1 or more");
    const Shape sa = asMatrixA(a.shape()), sb = asMatrixB(b.shape());
    if (sa.back() != sb[sb.size() - 2])
        return ctx.fail("A " + shapeString(a.shape()) + " and B " + shapeString(b.shape()) + " do not multiply");
    return std::pair{sa[sa.size() - 2], sb.back()};
}

Result<Tensor> integerMatMul(const KernelContext& ctx, const IntegerMatMulInputs& in) {
    QL_ASSIGN_OR_RETURN(const auto size, integerMatMulSize(ctx, in.a, in.b));
    const auto [m, n] = size;
    const Shape sa = asMatrixA(in.a.shape()), sb = asMatrixB(in.b.shape());
    const int64_t k = sa.back();
    const Shape batchA(sa.begin(), sa.end() - 2), batchB(sb.begin(), sb.end() - 2);
    const auto batch = broadcastShapes(batchA, batchB);
    if (!batch) return ctx.fail("the batch dims of A and B do not broadcast");
    Shape outShape = *batch;
    if (in.a.rank() > 1) outShape.push_back(m);
    if (in.b.rank() > 1) outShape.push_back(n);
    Tensor y(DataType::Int32, outShape);
    std::vector<float> a = eightBitValues(in.a), b = eightBitValues(in.b);
    for (size_t i = 0; i < a.size(); ++i)
        a[i] -= static_cast<float>(in.aZero[i / static_cast<size_t>(k) % static_cast<size_t>(m)]);
    for (size_t i = 0; i < b.size(); ++i) b[i] -= static_cast<float>(in.bZero[i % static_cast<size_t>(n)]);
    const int64_t count = shapeElementCount(*batch);
    for (int64_t i = 0; i < count; ++i)
        exactGemm(a.data() + batchOffset(i, *batch, batchA, m * k), b.data() + batchOffset(i, *batch, batchB, k * n),
                  y.data<int32_t>() + i * m * n, m, n, k);
    return y;
}

}  // namespace ql
