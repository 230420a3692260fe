#pragma once
// "Fix an input and fold": a graph input given a constant value becomes an initializer; every If whose condition
// then follows from constants alone is replaced by the nodes of the branch it would take; what no longer feeds an
// output is dropped. Silero VAD keeps all its work in the branches of one If on `sr` (8 or 16 kHz): with sr fixed,
// its layers are in the main graph, where they can be planned, calibrated and quantized like any other.
//
//   auto folded = foldFixedInputs(model, {{"sr", Tensor::fromVector<int64_t>(DataType::Int64, {}, {16000})}});
//   if (!folded) return folded.status();  // "sr: not an input of silero_vad.onnx (its inputs: input, state, sr)"
//   folded->model  // the ModelProto to write; folded->foldedIfs: "If_0 (then_branch)", ...
#include <memory>
#include <string>
#include <vector>

#include "core/common/status.h"
#include "core/exec/executor.h"
#include "core/model/model.h"

namespace onnx {
class ModelProto;
}

namespace ql {

struct FoldedModel {
    FoldedModel();
    ~FoldedModel();
    FoldedModel(FoldedModel&&) noexcept;
    FoldedModel& operator=(FoldedModel&&) noexcept;

    std::unique_ptr<onnx::ModelProto> model;
    std::vector<std::string> foldedIfs;      // "If_0 (then_branch)": each If replaced, and the branch it took
    size_t nodesBefore = 0, nodesAfter = 0;  // main-graph nodes
};

// `fixed`: graph input name -> value. Each must name a graph input, with the input's element type and a shape its
// declared dims accept. Bodies nested inside a taken branch come along as they are (Ifs inside them are not folded).
Result<FoldedModel> foldFixedInputs(const Model& model, const NamedTensors& fixed);

// Writes the folded model to `path` whole or not at all, once it loads (the ONNX checker and shape inference pass).
Status saveFoldedModel(const FoldedModel& folded, const std::string& path);

// The graph inputs that decide an If of the main graph through constants alone (Silero VAD: `sr`): fixing them folds
// that If. Empty when no If's condition follows from inputs and constants.
std::vector<std::string> inputsDecidingIfs(const Model& model);

// "sr=16000" or "sr=8000,flag=1": scalar values for `model`'s inputs, typed as each input declares (a scalar, or a
// tensor of one element when its dims say so); "name=values.npy" reads the file.
Result<NamedTensors> parseFixedInputs(const Model& model, const std::string& text);

}  // namespace ql
