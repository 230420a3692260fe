#pragma once
#include "core/exec/kernel.h"
#include "core/exec/kernels/conv_geometry.h"

namespace ql {

// ConvInteger (opset 10): conv(x - x_zero_point, w - w_zero_point) as INT32, x and w int8 or uint8, x's zero point
// per tensor, w's per tensor or per output channel; 1-D to 3-D, group, strides, dilations, pads / auto_pad.
// Bit-exact (integer_convolution.h).
class ConvIntegerKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    ConvAttributes mAttrs;
};

}  // namespace ql
