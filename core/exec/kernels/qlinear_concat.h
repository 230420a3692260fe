#pragma once
#include "core/exec/kernel.h"

namespace ql {

// com.microsoft QLinearConcat: inputs Y_scale, Y_zero_point, then (X, X_scale, X_zero_point) per tensor; each X
// requantized to Y's scale and zero point (quantize(dequantize(x)) in float, as ONNX Runtime's tables do) and
// concatenated along `axis`. int8 or uint8.
class QLinearConcatKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    int64_t mAxis = 0;
};

}  // namespace ql
