#pragma once
// The engine prediction and latency model as the speed search of `tune --objective latency` asks for them
// (core/quant/latency_regions.h): a plan's predicted time on one GPU, and the INT8 islands of the engine it builds.
// A file of the tune work (issue 28, item 5) beside the prediction it calls; nothing in core/engine depends on it.
#include "core/engine/engine_prediction.h"
#include "core/engine/latency_model.h"
#include "core/quant/latency_regions.h"

namespace ql {

class PredictedPlanLatency final : public PlanLatencyModel {
public:
    // `graph` must outlive it.
    PredictedPlanLatency(const Graph& graph, const TrtTarget& target, GpuProfile profile)
        : mGraph(graph), mTarget(target), mProfile(std::move(profile)) {}

    PlanTime time(const PrecisionPlan& plan) const override;
    // INT8 layers joined where one reads what another writes (behind the nodes that make no layer: Reshape,
    // Concat, Q/DQ), in execution order of their first layer.
    std::vector<Int8Island> int8Islands(const PrecisionPlan& plan) const override;
    std::string gpu() const override { return mProfile.gpu.name; }

    const GpuProfile& profile() const { return mProfile; }
    const TrtTarget& target() const { return mTarget; }

private:
    const Graph& mGraph;
    TrtTarget mTarget;
    GpuProfile mProfile;
};

}  // namespace ql
