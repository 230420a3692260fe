#pragma once
#include "core/exec/kernel.h"
#include "core/exec/kernels/conv_geometry.h"

namespace ql {

// QLinearConv (opsets 10+): y = saturate(round_half_even((conv(x - x_zp, w - w_zp[m]) + B[m]) * x_scale * w_scale[m]
// / y_scale) + y_zp) in y_zero_point's type (int8 / uint8). w's scale and zero point per tensor or per output
// channel, B optional INT32. The multiplier is computed in float as ONNX Runtime does; the sums are exact.
class QLinearConvKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    ConvAttributes mAttrs;
};

}  // namespace ql
