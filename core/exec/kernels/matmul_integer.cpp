#include "core/exec/kernels/matmul_integer.h"

#include "core/exec/kernels/integer_matmul.h"
#include "core/exec/kernels/integer_util.h"

namespace ql {

Status MatMulIntegerKernel::compute(KernelContext& ctx) {
    QL_RETURN_IF_ERROR(checkEightBit(ctx, 0, "A"));
    QL_RETURN_IF_ERROR(checkEightBit(ctx, 1, "B"));
    const Tensor &a = ctx.input(0), &b = ctx.input(1);
    QL_ASSIGN_OR_RETURN(const auto size, integerMatMulSize(ctx, a, b));
    QL_ASSIGN_OR_RETURN(const auto aZero, readZeroPoints(ctx, 2, static_cast<size_t>(size.first), "a_zero_point"));
    QL_ASSIGN_OR_RETURN(const auto bZero, readZeroPoints(ctx, 3, static_cast<size_t>(size.second), "b_zero_point"));
    QL_ASSIGN_OR_RETURN(Tensor y, integerMatMul(ctx, {a, aZero, b, bZero}));
    ctx.setOutput(0, std::move(y));
    return Status::ok();
}

}  // namespace ql
