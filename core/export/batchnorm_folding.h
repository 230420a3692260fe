#pragma once
// Folds BatchNormalization into the Conv / ConvTranspose / Gemm before it:
//   s = scale / sqrt(var + eps);  W' = W * s (per output channel);  b' = (b - mean) * s + B
// Legal only when the layer's output feeds the BatchNormalization alone and every weight is a constant
// float initializer. The layer takes over the BatchNormalization's output name, so the names users see stay.
#include <onnx/onnx_pb.h>

#include <vector>

#include "core/common/status.h"
#include "core/export/preparation_step.h"

namespace ql {

Status foldBatchNorms(onnx::GraphProto& graph, std::vector<PreparationStep>& steps);

}  // namespace ql
