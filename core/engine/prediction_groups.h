#pragma once
// The first half of the engine prediction (engine_prediction.h): which ONNX nodes TensorRT fuses into one layer.
// The second half (engine_prediction.cpp) gives each group its tensors, layouts, reformats and costs.
#include <vector>

#include "core/engine/engine_prediction.h"

namespace ql::prediction {

struct Group {
    PredictedKind kind = PredictedKind::Other;
    std::vector<NodeId> nodes;   // in graph order; empty for a shape_call or a synthetic shuffle
    NodeId anchor = kNoId;       // the node whose precision the layer computes in (kNoId: none)
    int region = -1;             // the Myelin region it belongs to, -1 outside Myelin
    int order = 0;               // execution order key: graph position of its last node, times 4, plus a step
    std::string name;            // set for groups without nodes
    bool movesDataOnly = false;  // a Myelin kernel that only reshapes: it reads any layout
};

struct Groups {
    std::vector<Group> groups;   // sorted by order
    std::vector<int> groupOf;    // per node: its group, -1 when it makes no layer of its own
    std::vector<bool> live;      // per node: computes on run-time activations
    std::vector<bool> alias;     // per node: renames its first input (Reshape, Q/DQ, ...): no layer
    std::vector<bool> junction;  // per node: a Concat, written in place by its producers
    bool approximate = false;
};

// Myelin regions get a shape_call when some graph input dimension is not a number (dynamic shapes).
Groups groupNodes(const Graph& graph, const PrecisionPlan& plan, const TrtTarget& target);

EnginePrecision enginePrecisionOf(Precision precision);
// A MaxPool read only through QuantizeLinear nodes: TensorRT moves the Q above it (max commutes with a positive
// scale) and runs it INT8.
bool quantizedAfterwards(const Graph& graph, const Node& node);

}  // namespace ql::prediction
