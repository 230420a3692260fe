#pragma once
// What the latency rules read (trt-int8-island-slower, trt-fp16-island-reformats, trt-int8-no-gain; issue 28 item
// 4): the engine the linted plan builds, predicted (core/engine/engine_prediction.h) and timed on the GPU lint was
// given (LintOptions::gpu: lint --gpu / --gpu-profile, or a project's profile), computed once, when a rule first asks
// (LintContext::latency()). Without a GPU there is none and the three rules stay silent. Every figure is an
// estimate, and the findings say so.
//
// A what-if (withPrecision) moves nodes to another precision and realizes the plan again as the export would
// (RealizedPrecision: what fuses with what) while keeping the fallbacks the linted plan already had (lint's rules,
// the FP16 guard): a rule cannot run lint again. A model that carries Q/DQ is taken as it is, the nodes moved alone.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/engine/engine_prediction.h"
#include "core/engine/latency_model.h"
#include "core/engine/plan_latency.h"
#include "core/engine/precision_islands.h"

namespace ql {

// A loss or gain of at least this share of the plan's predicted time makes a latency finding a warning; below, it
// is information (documented in each rule).
inline constexpr double kSignificantLatencyShare = 0.01;
inline constexpr const char* kSignificantLatencyText = "1%";

// An engine predicted and timed.
struct TimedEngine {
    EnginePrediction prediction;
    LatencyEstimate estimate;
};

// An INT8 island of the linted plan's engine and what moving it whole to FP16 changes (regionDecision).
struct Int8IslandAssessment {
    PrecisionIsland island;
    RegionDecision decision;
    // The island makes the plan slower than with it in FP16 (trt-int8-island-slower reports it); a tie is not.
    bool slower() const { return decision.netMs() < -1e-9; }
};

class LintLatency {
public:
    // `graph`, `plan` and `profile` must outlive it. `explicitQdq`: the model carries Q/DQ (no re-realization).
    LintLatency(const Graph& graph, const PrecisionPlan& plan, const TrtTarget& target, const GpuProfile& profile,
                bool explicitQdq);
    LintLatency(const LintLatency&) = delete;
    LintLatency& operator=(const LintLatency&) = delete;
    ~LintLatency();

    const EnginePrediction& prediction() const { return mPrediction; }
    const LatencyEstimate& estimate() const { return mEstimate; }
    const GpuProfile& profile() const { return mProfile; }
    // The linted plan with `nodes` requested `precision`, realized again.
    PrecisionPlan withPrecision(const std::vector<NodeId>& nodes, Precision precision) const;
    PlanTime time(const PrecisionPlan& plan) const { return mModel.time(plan); }
    TimedEngine timed(const PrecisionPlan& plan) const;
    PlanTime planTime() const;
    // The islands of `precision` in the linted plan's engine.
    std::vector<PrecisionIsland> islands(EnginePrecision precision) const;
    // The ONNX nodes of the island's layers, in graph order.
    std::vector<NodeId> nodesOf(const PrecisionIsland& island) const;
    // The node that names each of `layers` (indexes into the prediction): its first weighted node, else its first.
    std::vector<NodeId> layerNames(const std::vector<size_t>& layers) const;
    // Every INT8 island with what moving it to FP16 changes; computed on the first call (two rules read it).
    const std::vector<Int8IslandAssessment>& int8Islands() const;

    // Whether `ms` (a loss or gain) is a significant share of the plan's predicted time.
    bool significant(double ms) const;
    // " on t4 (predicted, an estimate: 0.8% of the plan's 0.612 ms)"
    std::string onGpuText(double ms) const;

private:
    const Graph& mGraph;
    const PrecisionPlan& mPlan;
    const GpuProfile& mProfile;
    bool mExplicit;
    PredictedPlanLatency mModel;
    EnginePrediction mPrediction;
    LatencyEstimate mEstimate;
    mutable std::optional<std::vector<Int8IslandAssessment>> mInt8Islands;
};

// "conv_a, conv_b and 3 more": the names of the first `shown` nodes.
std::string nodeNamesText(const Graph& graph, const std::vector<NodeId>& nodes, size_t shown = 4);
// The plan edit that requests `precision` for those of `nodes` the plan does not already request it for:
// {"nodes": {"conv_a": "fp16", "conv_b": "fp16"}} (every node: a snippet to paste into PLAN.json).
std::string planSnippet(const Graph& graph, const PrecisionPlan& plan, const std::vector<NodeId>& nodes,
                        Precision precision);

}  // namespace ql
