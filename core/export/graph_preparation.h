#pragma once
// Prepares a copy of a model for Q/DQ export without changing what it computes: constant subgraphs become
// initializers and BatchNormalization folds into the Conv / ConvTranspose / Gemm before it, so TensorRT
// sees the layers it will fuse. Surviving nodes and tensors keep their names.
#include <memory>
#include <string>
#include <vector>

#include "core/common/status.h"
#include "core/export/preparation_step.h"
#include "core/model/model.h"

namespace onnx {
class ModelProto;
}

namespace ql {

struct PreparedModel {
    std::unique_ptr<Model> model;
    std::vector<PreparationStep> steps;
};

// The model's proto with external data read in, so the copy stands on its own.
Result<onnx::ModelProto> selfContainedProto(const Model& model);
// The ONNX checker's first error when `model` was loaded, or "" when it passed (or could not run).
std::string checkerError(const Model& model);
// Loads an edited proto back as a Model named after `source`; an error if the edit made the ONNX checker fail.
Result<std::unique_ptr<Model>> reloadModel(const onnx::ModelProto& proto, const Model& source);

Result<PreparedModel> prepareModel(const Model& model);
// What the preparation changed, in words: "2 BatchNormalizations folded into their layers, 1 constant computation
// done ahead"; kinds that did not happen are left out ("" when nothing changed).
std::string preparationSummary(const std::vector<PreparationStep>& steps);

}  // namespace ql
