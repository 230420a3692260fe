#pragma once
// Per-output-channel amax of weights. The channel axis depends on how the layer lays out its weight:
//   Conv [C_out, C_in/g, k...]: axis 0        ConvTranspose [C_in, C_out/g, k...]: axis 1
//   Gemm B: axis 0 when transB = 1 ([N, K]), else axis 1 ([K, N])
//   MatMul B: the last axis ([..., K, N]: one amax per output column)
#include <optional>
#include <vector>

#include "core/common/status.h"
#include "core/exec/tensor.h"
#include "core/model/graph.h"

namespace ql {

// The output-channel axis of input `inputIndex` of `node`, or nullopt when that input is not a weight
// these layers quantize per channel (only input 1 of Conv, ConvTranspose, Gemm and MatMul is). `rank` is
// the weight's rank.
std::optional<int64_t> weightChannelAxis(const Node& node, size_t inputIndex, size_t rank);

// max |w| over every axis but `axis`: one value per channel. Float, Float16, BFloat16 or Double weights.
Result<std::vector<float>> perChannelAmax(const Tensor& weight, int64_t axis);

}  // namespace ql
