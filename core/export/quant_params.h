#pragma once
// The numbers of one 8-bit quantization read back from a model (a DequantizeLinear, a QLinear* op, an integer op's
// weight): scales and zero points per channel, the integer range, and the ranges and float weights they stand for.
// Shared by the Q/DQ import (qdq_import.h) and the QOperator import (qoperator_import.h) so both read scales alike.
#include <onnx/onnx_pb.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/common/status.h"

namespace ql {

struct QuantizationParams {
    std::vector<float> scales;  // one per channel (one when per tensor)
    std::vector<float> zeroPoints;
    float qmin = -128.0f, qmax = 127.0f;
    int64_t axis = 1;
    bool symmetric() const;
};

// Scales from `scale`, zero points from `zero` (nullptr: none, which ONNX reads as uint8 0). `where` names the node in
// errors ("<model>: DequantizeLinear 'n' (output 'y')").
Result<QuantizationParams> readQuantParams(const onnx::TensorProto& scale, const onnx::TensorProto* zero, int64_t axis,
                                           const std::string& where);

// The float range of `channel`: amax, and min/max when asked. Symmetric INT8 gives amaxForScale (qdq_import.h).
float rangeAmax(const QuantizationParams& q, size_t channel, float* min = nullptr, float* max = nullptr);

// (level - zero point) * scale of an INT8/UINT8 tensor, per channel on q.axis when there are several scales.
// keepScale: a symmetric level of +-127 becomes +-amax, so the channel's amax recomputed from the weights gives the
// same scale (export -> import -> export); off, every value is exactly (level - zero point) * scale.
Result<std::vector<float>> dequantizeTensor(const onnx::TensorProto& quantized, const QuantizationParams& q,
                                            bool keepScale, const std::string& where);

}  // namespace ql
