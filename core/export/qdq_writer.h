#pragma once
// Writes a QdqPlacement into a copy of the prepared model: QuantizeLinear->DequantizeLinear on activation
// edges, DequantizeLinear over int8 weight initializers (or a Q->DQ pair over float weights), symmetric
// INT8 with zero point 0 always given and `axis` always written. One pair per tensor, shared by all its
// quantized consumers; the model's own nodes and tensors keep their names.
#include <onnx/onnx_pb.h>

#include "core/common/status.h"
#include "core/export/fp16_islands.h"
#include "core/model/model.h"
#include "core/quant/qdq_placement.h"

namespace ql {

// The nodes of `prepared` written as FP16 islands (fp16_islands.h); none: the weakly typed form.
struct Fp16Islands {
    std::vector<bool> nodes;  // per node of the prepared graph; empty: none
    bool fp16Io = false;      // float graph inputs and outputs become float16
};

Result<onnx::ModelProto> writeQdq(const Model& prepared, const QdqPlacement& placement, const QdqOptions& options,
                                  const Fp16Islands& islands = {}, Fp16IslandStats* stats = nullptr);

}  // namespace ql
