#include "core/exec/kernels/qlinear_matmul.h"

#include "core/exec/kernels/integer_matmul.h"
#include "core/exec/kernels/integer_util.h"

namespace ql {

namespace {

enum Input : size_t { kA = 0, kAScale, kAZero, kB, kBScale, kBZero, kYScale, kYZero };

}  // namespace

Status QLinearMatMulKernel::compute(KernelContext& ctx) {
    QL_RETURN_IF_ERROR(checkEightBit(ctx, kA, "a"));
    QL_RETURN_IF_ERROR(checkEightBit(ctx, kB, "b"));
    QL_RETURN_IF_ERROR(checkEightBit(ctx, kYZero, "y_zero_point"));
    const Tensor &a = ctx.input(kA), &b = ctx.input(kB);
    QL_ASSIGN_OR_RETURN(const auto size, integerMatMulSize(ctx, a, b));
    const auto rows = static_cast<size_t>(size.first), columns = static_cast<size_t>(size.second);
    QL_ASSIGN_OR_RETURN(const auto aZero, readZeroPoints(ctx, kAZero, rows, "a_zero_point"));
    QL_ASSIGN_OR_RETURN(const auto bZero, readZeroPoints(ctx, kBZero, columns, "b_zero_point"));
    QL_ASSIGN_OR_RETURN(const auto yZero, readZeroPoints(ctx, kYZero, 1, "y_zero_point"));
    QL_ASSIGN_OR_RETURN(const auto aScale, readScales(ctx, kAScale, rows, "a_scale"));
    QL_ASSIGN_OR_RETURN(const auto bScale, readScales(ctx, kBScale, columns, "b_scale"));
    QL_ASSIGN_OR_RETURN(const auto yScale, readScales(ctx, kYScale, 1, "y_scale"));
    QL_ASSIGN_OR_RETURN(const Tensor acc, integerMatMul(ctx, {a, aZero, b, bZero}));
    // One multiplier per (row, column) of the product matrix, repeated over the batch.
    std::vector<float> multipliers(rows * columns);
    for (size_t r = 0; r < rows; ++r)
        for (size_t c = 0; c < columns; ++c) multipliers[r * columns + c] = aScale[r] * bScale[c] / yScale[0];
    const Requantizer requantize{ctx.input(kYZero).dtype(), yZero[0]};
    Tensor& y = ctx.allocateOutput(0, requantize.type, acc.shape());
    requantize.apply(acc, multipliers, 1, y);
    return Status::ok();
}

}  // namespace ql
