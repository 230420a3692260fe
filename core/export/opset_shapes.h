#pragma once
// Shapes for ONNX's version converter. Raising an opset 7-12 model to 13 (Q/DQ needs it) rewrites Softmax,
// LogSoftmax and Hardmax (their axis meant "flatten from here" before 13) and Resize (10 -> 11: roi per dimension)
// from their input's rank, and fails with "input shape is unknown" where ONNX's shape inference did not reach:
// typically after a Reshape whose target shape is computed (PyTorch's x.view(x.size(0), -1) in opset 9, a dynamic
// batch), which ONNX 1.12 cannot follow. The loaded model already carries every shape inference found (value_info),
// so what is missing is taken from what the executor sees: one run on seeded inputs gives every tensor's rank and
// dims; a second with the open input dims at 2 tells the fixed dims from those that follow an input (written as
// symbols, so nothing of the seeded run is baked into the model).
#include <onnx/onnx_pb.h>

#include "core/common/status.h"
#include "core/exec/random_inputs.h"
#include "core/model/model.h"

namespace ql {

// True when raising `graph` to opset 13 needs a tensor shape that shape inference did not find.
bool opsetRaiseNeedsShapes(const Graph& graph);

// Writes into `proto` (a copy of `model`'s) the value_info of every tensor whose rank shape inference did not find,
// from the executor's runs (open input dims at the sizes of `known` where given: the calibration's, then doubled);
// does nothing when opsetRaiseNeedsShapes is false. An error naming the node when a
// Softmax-like node's axis is not the last one and its input has more than one open dimension: the converter
// writes that shape into a Reshape, where only one dimension may be left open.
Status addObservedShapes(const Model& model, onnx::ModelProto& proto, const KnownInputShapes& known = {});

}  // namespace ql
