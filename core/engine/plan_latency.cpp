#include "core/engine/plan_latency.h"

#include <functional>
#include <numeric>

namespace ql {
namespace {

bool isInt8Layer(const PredictedLayer& layer) {
    return layer.kind != PredictedKind::Reformat && !layer.nodes.empty() && layer.precision == EnginePrecision::Int8;
}

int findRoot(std::vector<int>& parent, int i) {
    while (parent[static_cast<size_t>(i)] != i)
        i = parent[static_cast<size_t>(i)] = parent[static_cast<size_t>(parent[static_cast<size_t>(i)])];
    return i;
}

}  // namespace

PlanTime PredictedPlanLatency::time(const PrecisionPlan& plan) const {
    const EnginePrediction prediction = predictEngine(mGraph, plan, mTarget);
    const LatencyEstimate estimate = estimateLatency(prediction, mProfile);
    return {estimate.totalMs, estimate.reformatMs, static_cast<int64_t>(prediction.reformatCount())};
}

std::vector<Int8Island> PredictedPlanLatency::int8Islands(const PrecisionPlan& plan) const {
    const EnginePrediction prediction = predictEngine(mGraph, plan, mTarget);
    const auto& layers = prediction.layers;
    std::vector<int> layerOf(mGraph.nodes().size(), -1);
    for (size_t i = 0; i < layers.size(); ++i)
        if (layers[i].kind != PredictedKind::Reformat)
            for (NodeId n : layers[i].nodes) layerOf[static_cast<size_t>(n)] = static_cast<int>(i);
    std::vector<int> parent(layers.size());
    std::iota(parent.begin(), parent.end(), 0);
    // The layers that wrote `v`: its producer's, or, through a node that makes no layer, its inputs' writers.
    std::function<void(ValueId, std::vector<int>&, int)> writers = [&](ValueId v, std::vector<int>& out, int depth) {
        if (v == kNoId || depth > 32) return;
        const NodeId p = mGraph.value(v).producer;
        if (p == kNoId) return;
        if (const int l = layerOf[static_cast<size_t>(p)]; l >= 0) {
            out.push_back(l);
            return;
        }
        for (ValueId in : mGraph.node(p).inputs) writers(in, out, depth + 1);
    };
    for (size_t i = 0; i < layers.size(); ++i) {
        if (!isInt8Layer(layers[i])) continue;
        for (NodeId n : layers[i].nodes) {
            for (ValueId in : mGraph.node(n).inputs) {
                std::vector<int> from;
                writers(in, from, 0);
                for (int w : from)
                    if (w != static_cast<int>(i) && isInt8Layer(layers[static_cast<size_t>(w)]))
                        parent[static_cast<size_t>(findRoot(parent, w))] = findRoot(parent, static_cast<int>(i));
            }
        }
    }
    std::vector<Int8Island> islands;
    std::vector<int> islandOfRoot(layers.size(), -1);
    for (size_t i = 0; i < layers.size(); ++i) {
        if (!isInt8Layer(layers[i])) continue;
        int& island = islandOfRoot[static_cast<size_t>(findRoot(parent, static_cast<int>(i)))];
        if (island < 0) {
            island = static_cast<int>(islands.size());
            islands.emplace_back();
        }
        islands[static_cast<size_t>(island)].push_back(layers[i].nodes);
    }
    return islands;
}

}  // namespace ql
