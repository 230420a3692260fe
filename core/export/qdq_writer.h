#pragma once
// Writes a QdqPlacement into a copy of the prepared model: QuantizeLinear->DequantizeLinear on activation
// edges, DequantizeLinear over int8 weight initializers (or a Q->DQ pair over float weights), symmetric
// INT8 with zero point 0 always given and `axis` always written. One pair per tensor, shared by all its
// quantized consumers; the model's own nodes and tensors keep their names.
#include <onnx/onnx_pb.h>

#include "core/common/status.h"
#include "core/model/model.h"
#include "core/quant/qdq_placement.h"

namespace ql {

Result<onnx::ModelProto> writeQdq(const Model& prepared, const QdqPlacement& placement, const QdqOptions& options);

}  // namespace ql
