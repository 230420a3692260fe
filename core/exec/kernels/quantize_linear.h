#pragma once
#include <cstdint>

#include "core/exec/kernel.h"

namespace ql {

// QuantizeLinear: y = saturate(round_half_to_even(x / y_scale) + y_zero_point) into uint8 (the default, or
// the zero point's type) or int8. DequantizeLinear: y = (x - x_zero_point) * x_scale from int8/uint8/int32.
// Scale and zero point are scalars (per tensor) or 1-D along `axis` (per channel, opset 13+).
class QuantizeLinearKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    bool mDequantize = false;
    int64_t mAxis = 1;
};

}  // namespace ql
