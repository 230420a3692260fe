#pragma once
#include <array>

#include "core/exec/kernel.h"

namespace ql {

// com.microsoft QLinearSigmoid and QLinearLeakyRelu (alpha, default 0.01): y = quantize(f(dequantize(x))), per-tensor
// scales and zero points (optional, 0), int8 or uint8. As ONNX Runtime does, through a table of the 256 possible
// inputs computed in float.
class QLinearLookupKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    bool mSigmoid = true;
    float mAlpha = 0.01f;
};

}  // namespace ql
