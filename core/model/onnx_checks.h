#pragma once
// The ONNX checker and shape inference, run so that a crash inside them cannot take QuantLens down.
#include <string>
#include <vector>

#include "core/model/model.h"

namespace onnx {
class ModelProto;
}

namespace ql {

// Runs the checker and/or shape inference on `model`; inferred value_info and output types are written into
// it. Both run in a helper process (quantlens-onnx-check): ONNX 1.12's inference functions dereference null on some
// malformed models (fuzzing found Scan, ConvTranspose and more), and such a crash becomes a diagnostic instead. `path`
// is used by the checker for models with external data.
std::vector<Diagnostic> runOnnxChecks(onnx::ModelProto& model, const std::string& path, bool externalData,
                                      bool runChecker, bool inferShapes);

}  // namespace ql
