#pragma once
#include "core/exec/kernel.h"

namespace ql {

// MatMulInteger (opset 10): (A - a_zero_point) · (B - b_zero_point) as INT32 with numpy matmul broadcasting, A and
// B int8 or uint8, a's zero point per tensor or per row (M values), b's per tensor or per column (N values).
// Bit-exact (integer_matmul.h).
class MatMulIntegerKernel final : public Kernel {
public:
    Status compute(KernelContext& ctx) override;
};

}  // namespace ql
