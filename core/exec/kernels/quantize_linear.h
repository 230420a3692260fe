#pragma once
#include <cstdint>

#include "core/exec/kernel.h"

namespace ql {

// QuantizeLinear: y = saturate(round_half_to_even(x / y_scale) + y_zero_point) into uint8 (the default, the zero
// point's type or, opset 21+, output_dtype), int8, uint16 or int16 (opset 21+). DequantizeLinear: y = (x -
// x_zero_point) * x_scale from those types and int32, in the scale's type (opset 19+: float16 / bfloat16 scales give
// float16 / bfloat16). Scale and zero point are scalars (per tensor), 1-D along `axis` (per channel, opset 13+), or
// (opset 21+, block_size > 0) x's shape with ceil(size / block_size) along `axis`: one per block. FP8 and 4-bit
// types are not supported (the executor holds no such tensors).
class QuantizeLinearKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    bool mDequantize = false;
    int64_t mAxis = 1, mBlockSize = 0;
    DataType mOutputType = DataType::Undefined;  // QuantizeLinear's output_dtype (opset 21+)
};

}  // namespace ql
