#include "core/engine/plan_latency.h"

#include "core/engine/precision_islands.h"

namespace ql {

PlanTime PredictedPlanLatency::time(const PrecisionPlan& plan) const {
    const EnginePrediction prediction = predictEngine(mGraph, plan, mTarget);
    const LatencyEstimate estimate = estimateLatency(prediction, mProfile);
    return {estimate.totalMs, estimate.reformatMs, static_cast<int64_t>(prediction.reformatCount())};
}

std::vector<Int8Island> PredictedPlanLatency::int8Islands(const PrecisionPlan& plan) const {
    const EnginePrediction prediction = predictEngine(mGraph, plan, mTarget);
    std::vector<Int8Island> islands;
    for (const PrecisionIsland& island : precisionIslands(mGraph, prediction, EnginePrecision::Int8)) {
        Int8Island& layers = islands.emplace_back();
        for (size_t i : island.layers) layers.push_back(prediction.layers[i].nodes);
    }
    return islands;
}

}  // namespace ql
