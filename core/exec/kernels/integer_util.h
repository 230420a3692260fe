#pragma once
// The arithmetic of ONNX's integer ops (ConvInteger, MatMulInteger, QLinearConv, QLinearMatMul), shared so that
// they agree to the bit. Operands are 8-bit integers minus their zero points, so |operand| <= 255 and every product is
// below 2^16: 256 of them add up below 2^24, which float holds exactly. exactGemm runs oneDNN's sgemm over slices
// of 256 along K (exact, whatever order or FMA it uses) and adds the slices in int64, so the int32 results are an
// integer GEMM's (wrapping past int32 as integer arithmetic does).
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/exec/kernel.h"
#include "core/exec/tensor.h"

namespace ql {

// int8 or uint8 input `i`, failing naming the node for another type.
Status checkEightBit(const KernelContext& ctx, size_t input, const std::string& name);

// The zero points of input `i` as int32: `count` copies of a scalar (or of 0 when the input is omitted), or a
// tensor of exactly `count` values (per row, column or channel). Fails naming `name` otherwise.
Result<std::vector<int32_t>> readZeroPoints(const KernelContext& ctx, size_t input, size_t count,
                                            const std::string& name);
// Float scales of input `i`: a scalar repeated `count` times, or exactly `count` values.
Result<std::vector<float>> readScales(const KernelContext& ctx, size_t input, size_t count, const std::string& name);

// Values of an int8/uint8 tensor as floats.
std::vector<float> eightBitValues(const Tensor& t);

// c[M x N] = a[M x K] · b[K x N] (row-major floats holding integers of magnitude <= 255), as int32 with wrap-around.
void exactGemm(const float* a, const float* b, int32_t* c, int64_t m, int64_t n, int64_t k);

// Requantizes int32 sums to the 8-bit type of `zero`'s tensor: clamp(round_half_even(acc * multiplier) + zero), as
// ONNX Runtime does with a float multiplier (x_scale * w_scale / y_scale).
struct Requantizer {
    DataType type = DataType::UInt8;
    int32_t zero = 0;
    int32_t lo() const { return type == DataType::Int8 ? -128 : 0; }
    int32_t hi() const { return type == DataType::Int8 ? 127 : 255; }
    int32_t level(int32_t acc, float multiplier) const;
    // y[i] = level(acc[i], multipliers[i / inner % multipliers.size()]) into `y` (int8 / uint8, acc's size): the
    // multiplier per channel (inner = spatial size), per column (inner = 1) or per tensor (one multiplier).
    void apply(const Tensor& acc, std::span<const float> multipliers, int64_t inner, Tensor& y) const;
};

// The (per-tensor) quantization of an 8-bit tensor: ONNX Runtime's com.microsoft QLinear* ops take a scale and an
// optional zero point (0 of the tensor's type when omitted).
struct Quantization {
    float scale = 1.0f;
    int32_t zero = 0;
    DataType type = DataType::UInt8;
    float dequantize(int32_t q) const { return static_cast<float>(q - zero) * scale; }
    // clamp(round_half_even(v / scale) + zero) as an integer of `type`.
    int32_t quantize(float v) const;
};
// Scale from input `scaleInput`, zero point from `zeroInput` (optional); `type` is the quantized tensor's.
Result<Quantization> readQuantization(const KernelContext& ctx, size_t scaleInput, size_t zeroInput, DataType type,
                                      const std::string& name);
// The 8-bit value at i of an int8 / uint8 tensor, and storing one.
int32_t eightBitAt(const Tensor& t, int64_t i);
void setEightBit(Tensor& t, int64_t i, int32_t v);

}  // namespace ql
