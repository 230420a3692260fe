#pragma once
// Islands of one precision in a predicted engine (engine_prediction.h): layers of that precision that hand tensors
// of it to each other, joined where one reads what another writes, seen through the nodes that make no layer
// (Reshape, Concat, Q/DQ). The speed search takes its INT8 regions from here (plan_latency.h); lint's latency rules
// take the INT8 islands and the FP16 islands between INT8 layers (core/lint/lint_latency.h).
#include <set>
#include <vector>

#include "core/engine/engine_prediction.h"

namespace ql {

struct PrecisionIsland {
    std::vector<size_t> layers;  // indexes into the prediction's layers, in execution order
    std::set<size_t> writers;    // layers outside the island that write what it reads (reformats not counted)
    std::set<size_t> readers;    // layers outside the island that read what it writes (reformats not counted)
};

// In execution order of their first layer. Only layers that compute ONNX nodes count (not reformats or shape calls).
std::vector<PrecisionIsland> precisionIslands(const Graph& graph, const EnginePrediction& prediction,
                                              EnginePrecision precision);

}  // namespace ql
