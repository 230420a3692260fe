#pragma once
// The product of MatMulInteger and QLinearMatMul: (A - a_zero[row]) · (B - b_zero[column]) as exact int32 sums,
// with numpy matmul's batch broadcasting and 1-D promotion.
#include <cstdint>
#include <span>

#include "core/exec/kernel.h"

namespace ql {

struct IntegerMatMulInputs {
    const Tensor& a;                 // int8 / uint8 [..., M, K]
    std::span<const int32_t> aZero;  // M values (per row)
    const Tensor& b;                 // int8 / uint8 [..., K, N]
    std::span<const int32_t> bZero;  // N values (per column)
};

// Rows M and columns N of the product (1 for a 1-D operand), for sizing the zero points.
Result<std::pair<int64_t, int64_t>> integerMatMulSize(const KernelContext& ctx, const Tensor& a, const Tensor& b);

// An INT32 tensor of the broadcast batch dims and M x N (1-D operands' axes dropped, as numpy does).
Result<Tensor> integerMatMul(const KernelContext& ctx, const IntegerMatMulInputs& in);

}  // namespace ql
