#pragma once
// The ONNX checker and shape inference, run so that a crash inside them cannot take QuantLens down.
#include <memory>
#include <string>
#include <vector>

#include "core/model/model.h"

namespace onnx {
class ModelProto;
}

namespace ql {

// What the checker and shape inference found: diagnostics, and the inferred types (value_info and output types,
// bodies included) as a skeleton of the model without its weights; null when inference did not run or failed.
struct OnnxCheckResult {
    std::vector<Diagnostic> diagnostics;
    std::shared_ptr<const onnx::ModelProto> inferred;
};

// Runs the checker and/or shape inference on `model` without changing it, so other threads may read the model
// meanwhile. Both run in a helper process (quantlens-onnx-check): ONNX 1.12's inference functions dereference null
// on some malformed models (fuzzing found Scan, ConvTranspose and more), and such a crash becomes a diagnostic
// instead. `path` is used by the checker for models with external data.
OnnxCheckResult checkOnnxModel(const onnx::ModelProto& model, const std::string& path, bool externalData,
                               bool runChecker, bool inferShapes);

// Writes the inferred value_info and output types of `result` into `model`.
void applyInferredTypes(const OnnxCheckResult& result, onnx::ModelProto& model);

// checkOnnxModel, then applyInferredTypes; returns the diagnostics.
std::vector<Diagnostic> runOnnxChecks(onnx::ModelProto& model, const std::string& path, bool externalData,
                                      bool runChecker, bool inferShapes);

}  // namespace ql
