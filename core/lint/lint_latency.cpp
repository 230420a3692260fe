#include "core/lint/lint_latency.h"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/quant/realized_precision.h"

namespace ql {
namespace {

// The fallbacks the linted plan had that a what-if keeps where the node's request did not change: an INT8 request
// that runs in float (a lint rule, no calibrated range), an FP16 request the FP16 guard keeps FP32.
class KeptFallbacks final : public PrecisionPolicy {
public:
    explicit KeptFallbacks(const PrecisionPlan& linted) : mLinted(linted) {}
    void apply(const Graph& graph, PrecisionPlan& plan) const override {
        for (const Node& node : graph.nodes()) {
            const NodeId n = node.id;
            if (plan.requested(n) != mLinted.requested(n)) continue;
            const Precision requested = mLinted.requested(n), effective = mLinted.effective(n);
            const bool fellBack = (requested == Precision::Int8 && effective != Precision::Int8) ||
                                  (requested != Precision::Fp32 && effective == Precision::Fp32);
            if (fellBack) plan.setEffective(n, effective, mLinted.reason(n));
        }
    }

private:
    const PrecisionPlan& mLinted;
};

}  // namespace

LintLatency::LintLatency(const Graph& graph, const PrecisionPlan& plan, const TrtTarget& target,
                         const GpuProfile& profile, bool explicitQdq)
    : mGraph(graph),
      mPlan(plan),
      mProfile(profile),
      mExplicit(explicitQdq),
      mModel(graph, target, profile),
      mPrediction(predictEngine(graph, plan, target)),
      mEstimate(estimateLatency(mPrediction, profile)) {}

LintLatency::~LintLatency() = default;

PrecisionPlan LintLatency::withPrecision(const std::vector<NodeId>& nodes, Precision precision) const {
    PrecisionPlan plan = mPlan;
    for (NodeId n : nodes) plan.setRequested(n, precision, mPlan.placementNote(n));
    if (mExplicit) return plan;
    const KeptFallbacks kept(mPlan);
    const RealizedPrecision realized(Precision::Fp16, mModel.target().typing == TrtTyping::Strong, nullptr);
    const PrecisionPolicy* policies[] = {&kept, &realized};
    plan.applyPolicies(mGraph, policies);
    return plan;
}

PlanTime LintLatency::planTime() const {
    return {mEstimate.totalMs, mEstimate.reformatMs, static_cast<int64_t>(mPrediction.reformatCount())};
}

std::vector<PrecisionIsland> LintLatency::islands(EnginePrecision precision) const {
    return precisionIslands(mGraph, mPrediction, precision);
}

std::vector<NodeId> LintLatency::nodesOf(const PrecisionIsland& island) const {
    std::vector<NodeId> nodes;
    for (size_t i : island.layers)
        nodes.insert(nodes.end(), mPrediction.layers[i].nodes.begin(), mPrediction.layers[i].nodes.end());
    std::sort(nodes.begin(), nodes.end());
    nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
    return nodes;
}

TimedEngine LintLatency::timed(const PrecisionPlan& plan) const {
    TimedEngine engine{predictEngine(mGraph, plan, mModel.target()), {}};
    engine.estimate = estimateLatency(engine.prediction, mProfile);
    return engine;
}

const std::vector<Int8IslandAssessment>& LintLatency::int8Islands() const {
    if (mInt8Islands) return *mInt8Islands;
    mInt8Islands.emplace();
    const PlanTime now = planTime();
    for (PrecisionIsland& island : islands(EnginePrecision::Int8)) {
        std::vector<NodeId> nodes = nodesOf(island);
        const PlanTime fp16 = time(withPrecision(nodes, Precision::Fp16));
        const auto layers = static_cast<int64_t>(island.layers.size());
        RegionDecision decision = regionDecision(std::move(nodes), layers, now, fp16, Precision::Fp16);
        mInt8Islands->push_back({std::move(island), std::move(decision)});
    }
    return *mInt8Islands;
}

std::vector<NodeId> LintLatency::layerNames(const std::vector<size_t>& layers) const {
    std::vector<NodeId> names;
    for (size_t i : layers) {
        const std::vector<NodeId>& nodes = mPrediction.layers[i].nodes;
        if (nodes.empty()) continue;
        const auto weighted = std::find_if(nodes.begin(), nodes.end(), [&](NodeId n) {
            const std::string& op = mGraph.node(n).opType;
            return op == "Conv" || op == "ConvTranspose" || op == "Gemm" || op == "MatMul";
        });
        names.push_back(weighted == nodes.end() ? nodes.front() : *weighted);
    }
    return names;
}

bool LintLatency::significant(double ms) const {
    return mEstimate.totalMs > 0.0 && ms >= kSignificantLatencyShare * mEstimate.totalMs;
}

std::string LintLatency::onGpuText(double ms) const {
    char share[64] = "";
    if (mEstimate.totalMs > 0.0)
        std::snprintf(share, sizeof(share), ": %.1f%% of the plan's %s", 100.0 * ms / mEstimate.totalMs,
                      millisecondsText(mEstimate.totalMs).c_str());
    return " on " + mProfile.gpu.name + " (predicted, an estimate" + share + ")";
}

std::string nodeNamesText(const Graph& graph, const std::vector<NodeId>& nodes, size_t shown) {
    std::string text;
    const size_t listed = std::min(shown, nodes.size());
    for (size_t i = 0; i < listed; ++i) {
        if (i > 0) text += i + 1 == nodes.size() ? " and " : ", ";
        text += graph.node(nodes[i]).name;
    }
    if (listed < nodes.size()) text += " and " + std::to_string(nodes.size() - listed) + " more";
    return text;
}

std::string planSnippet(const Graph& graph, const PrecisionPlan& plan, const std::vector<NodeId>& nodes,
                        Precision precision) {
    nlohmann::ordered_json edits = nlohmann::ordered_json::object();
    for (NodeId n : nodes)
        if (plan.requested(n) != precision) edits[graph.node(n).name] = precisionName(precision);
    return nlohmann::ordered_json{{"nodes", edits}}.dump();
}

}  // namespace ql
