#pragma once
#include "core/exec/kernel.h"

namespace ql {

// Pow with numpy broadcasting; the exponent may have another numeric dtype than the base (opset 12+). Integer
// bases are computed in double and truncated, as ONNX Runtime does.
class PowKernel final : public Kernel {
public:
    Status compute(KernelContext& ctx) override;
};

}  // namespace ql
