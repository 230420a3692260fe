#pragma once
// The convolution of ConvInteger and QLinearConv: conv(x - x_zero, w - w_zero[m]) (+ bias[m]) as exact int32 sums,
// 1-D to 3-D, with group, strides, dilations, pads / auto_pad (ConvAttributes). Padding reads as the zero point
// (so adds nothing). Output tiles of im2col columns go through exactGemm (integer_util.h).
#include <cstdint>
#include <span>

#include "core/exec/kernel.h"
#include "core/exec/kernels/conv_geometry.h"

namespace ql {

struct IntegerConvInputs {
    const Tensor& x;  // int8 / uint8 [N, C, spatial...]
    int32_t xZero = 0;
    const Tensor& w;                 // int8 / uint8 [M, C/group, k...]
    std::span<const int32_t> wZero;  // per output channel (M values)
    std::span<const int32_t> bias;   // per output channel, or empty
};

// An INT32 tensor [N, M, out spatial...].
Result<Tensor> integerConvolution(const KernelContext& ctx, const ConvAttributes& attrs, const IntegerConvInputs& in);

}  // namespace ql
