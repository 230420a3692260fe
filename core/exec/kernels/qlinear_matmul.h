#pragma once
#include "core/exec/kernel.h"

namespace ql {

// QLinearMatMul (opsets 10, 21): y = saturate(round_half_even((A - a_zp) · (B - b_zp) * a_scale * b_scale / y_scale)
// + y_zp) in y_zero_point's type, numpy matmul broadcasting; a's scale and zero point per tensor or per row, b's
// per tensor or per column. The multiplier is computed in float as ONNX Runtime does; the sums are exact.
class QLinearMatMulKernel final : public Kernel {
public:
    Status compute(KernelContext& ctx) override;
};

}  // namespace ql
