#pragma once
#include "core/exec/kernel.h"
#include "core/exec/kernels/conv_geometry.h"

namespace ql {

// DeformConv (opsets 19, 22), 2-D: a convolution whose every kernel tap samples X bilinearly (zeros outside) at its
// regular position plus the learned (dy, dx) of `offset` [N, offset_group * 2 * kH * kW, oH, oW], optionally
// scaled by `mask` [N, offset_group * kH * kW, oH, oW]; group, offset_group, strides, pads, dilations, bias. The
// sampled columns go through Eigen's float GEMM per group. Float, double, float16 and bfloat16 (computed in float).
class DeformConvKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    ConvAttributes mAttrs;
    int64_t mOffsetGroups = 1;
};

}  // namespace ql
