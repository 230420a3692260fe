#pragma once
#include "core/exec/kernel.h"

namespace ql {

// DynamicQuantizeLinear: uint8 quantization of a float tensor with a scale and zero point computed from its
// range (widened to include 0): outputs y, y_scale and y_zero_point. An all-zero input gets scale 0 and
// zero point 0.
class DynamicQuantizeLinearKernel final : public Kernel {
public:
    Status compute(KernelContext& ctx) override;
};

}  // namespace ql
