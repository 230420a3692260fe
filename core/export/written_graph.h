#pragma once
// The last step of every written export: its nodes in a topological order, checked before anything is returned.
// The passes that add nodes (Q/DQ pairs, float16 Casts) place them beside the node they were made for, which is
// not always before every reader: a Q/DQ made for a Conv is also read by a MaxPool listed earlier (tf2onnx writes
// its nodes in its own order), so the order is restored here, once, for all of them, instead of hoped for.
#include <onnx/onnx_pb.h>

#include "core/common/status.h"

namespace ql {

// Orders `graph`'s nodes so each comes after the producers of what it reads (its inputs and the outer-scope names
// its If/Loop/Scan bodies read), keeping the current order wherever it already holds (stable: the earliest ready
// node first). An internalError naming a node when no order exists (a cycle, or a name nothing produces).
Status sortNodesTopologically(onnx::GraphProto& graph);

// An internalError naming the first node that reads a name no earlier node, graph input or initializer defines.
Status checkTopologicalOrder(const onnx::GraphProto& graph);

// The order check, then the ONNX checker on `model` (in process: it only reads the proto and runs no shape
// inference, whose crashes are what the helper process guards against). `sourcePassedChecker`: the model the
// export was made from passed the checker; one that did not may keep its own problems, the writer adds none.
Status checkWrittenModel(const onnx::ModelProto& model, bool sourcePassedChecker);

}  // namespace ql
