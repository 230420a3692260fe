#pragma once
#include "core/exec/kernel.h"

namespace ql {

// com.microsoft QLinearAdd and QLinearMul (ONNX Runtime's QOperator format): C = quantize(op(dequantize(A),
// dequantize(B))) with numpy broadcasting, per-tensor scales and zero points (optional, 0), int8 or uint8, in ONNX
// Runtime's float arithmetic: Add sums (a - za) * (sa / sc) and (b - zb) * (sb / sc), Mul multiplies (a - za) (b - zb)
// by sa * sb / sc; then round half to even, add zc, saturate.
class QLinearBinaryKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    bool mMul = false;
};

}  // namespace ql
