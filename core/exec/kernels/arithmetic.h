#pragma once
#include "core/exec/kernel.h"

namespace ql {

// Add, Sub, Mul, Div with numpy broadcasting, over every numeric dtype (float16/bfloat16 computed in float).
// Integer results wrap around; integer division truncates toward zero and gives 0 for a zero divisor.
class ArithmeticKernel final : public Kernel {
public:
    enum class Op { Add, Sub, Mul, Div };
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    Op mOp = Op::Add;
};

}  // namespace ql
