#pragma once
// Replaces constant subgraphs by initializers: Constant nodes become initializers of the same name, and
// any node whose inputs are all constants is evaluated once with the executor and replaced by its
// outputs (same names). Existing Q/DQ nodes, random ops and control flow are kept, as are results much
// larger than their inputs (ConstantOfShape, Expand, Tile...), which would only bloat the file.
#include <onnx/onnx_pb.h>

#include <vector>

#include "core/common/status.h"
#include "core/export/preparation_step.h"

namespace ql {

Status foldConstants(onnx::ModelProto& model, std::vector<PreparationStep>& steps);

}  // namespace ql
