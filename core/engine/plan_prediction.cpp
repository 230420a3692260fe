#include "core/engine/plan_prediction.h"

#include <algorithm>

#include "core/engine/plan_latency.h"
#include "core/model/body_path.h"
#include "core/model/fp16_form.h"
#include "core/model/subgraph_model.h"

namespace ql {
namespace {

bool isComputeLayer(const PredictedLayer& layer) {
    return layer.kind != PredictedKind::Reformat && !layer.nodes.empty();
}

// The plan with `layer`'s nodes that have a precision to choose requested `precision` (from INT8 to FP16: only
// those requested INT8, as the speed search moves them), the rules applied; nullopt when nothing changes.
std::optional<PrecisionPlan> withLayerRequested(const PlanPredictionRequest& request, const PredictedLayer& layer,
                                                Precision precision) {
    PrecisionPlan candidate = request.plan;
    bool changed = false;
    for (NodeId n : layer.nodes) {
        if (!hasPrecisionChoice(request.graph, request.graph.node(n)) || candidate.requested(n) == precision) continue;
        if (precision == Precision::Fp16 && candidate.requested(n) != Precision::Int8) continue;
        candidate.setRequested(n, precision, candidate.placementNote(n));
        changed = true;
    }
    if (!changed) return std::nullopt;
    return request.apply ? request.apply(std::move(candidate)) : candidate;
}

double totalMs(const PlanPredictionRequest& request, const PrecisionPlan& plan) {
    return estimateLatency(predictEngine(request.graph, plan, request.target), request.profile).totalMs;
}

// What INT8 gains over FP16 in `layer`, in the plan's total (see the header).
std::optional<double> int8Gain(const PlanPredictionRequest& request, const PredictedLayer& layer, double planMs) {
    if (layer.precision == EnginePrecision::Int8) {
        const auto fp16 = withLayerRequested(request, layer, Precision::Fp16);
        return fp16 ? std::optional<double>(totalMs(request, *fp16) - planMs) : std::nullopt;
    }
    if (layer.precision != EnginePrecision::Fp16) return std::nullopt;
    const auto int8 = withLayerRequested(request, layer, Precision::Int8);
    if (!int8) return std::nullopt;
    const EnginePrediction engine = predictEngine(request.graph, *int8, request.target);
    // The rules may keep the layer in FP16 (no INT8 kernel, a fallback): then there is no INT8 to compare.
    const auto same = std::find_if(engine.layers.begin(), engine.layers.end(), [&](const PredictedLayer& other) {
        return isComputeLayer(other) && other.nodes.front() == layer.nodes.front();
    });
    if (same == engine.layers.end() || same->precision != EnginePrecision::Int8) return std::nullopt;
    return planMs - estimateLatency(engine, request.profile).totalMs;
}

}  // namespace

const PredictedLayer* PlanPrediction::layerOf(NodeId node) const {
    if (node < 0 || static_cast<size_t>(node) >= layerOfNode.size()) return nullptr;
    const int layer = layerOfNode[static_cast<size_t>(node)];
    return layer < 0 ? nullptr : &engine.layers[static_cast<size_t>(layer)];
}

std::optional<double> PlanPrediction::layerMs(NodeId node) const {
    if (!layerOf(node)) return std::nullopt;
    return estimate.layers[static_cast<size_t>(layerOfNode[static_cast<size_t>(node)])].ms;
}

std::optional<double> PlanPrediction::int8Gain(NodeId node) const {
    if (!layerOf(node)) return std::nullopt;
    return int8GainMs[static_cast<size_t>(layerOfNode[static_cast<size_t>(node)])];
}

const RegionDecision* PlanPrediction::regionOf(NodeId node) const {
    if (node < 0 || static_cast<size_t>(node) >= regionOfNode.size()) return nullptr;
    const int region = regionOfNode[static_cast<size_t>(node)];
    return region < 0 ? nullptr : &regions[static_cast<size_t>(region)];
}

bool PlanPrediction::isLayerLead(NodeId node) const {
    const PredictedLayer* layer = layerOf(node);
    return layer && layer->nodes.front() == node;
}

namespace {

// PlanPrediction::bodyLayerMs of `engine`'s bodies (nested ones too), their paths under `path`.
void addBodyLayerTimes(const EnginePrediction& engine, const LatencyEstimate& estimate, const std::string& path,
                       std::map<std::string, double>& times) {
    for (size_t i = 0; i < engine.bodies.size(); ++i) {
        const PredictedBody& body = engine.bodies[i];
        const LatencyEstimate& inner = *estimate.bodies[i].estimate;
        const std::string where = path + bodyPathStep(body.node, body.attribute);
        for (size_t j = 0; j < body.engine->layers.size(); ++j)
            if (!body.engine->layers[j].nodes.empty())
                times[where + body.graph->graph.node(body.engine->layers[j].nodes.front()).name] = inner.layers[j].ms;
        addBodyLayerTimes(*body.engine, inner, where, times);
    }
}

// Every node of `graph` and of its If/Loop/Scan bodies (nested ones too) `precision`.
PrecisionPlan uniformPlan(const Graph& graph, Precision precision) {
    PrecisionPlan plan(graph, precision);
    for (const Node& node : graph.nodes())
        for (const SubgraphInfo& subgraph : node.subgraphs)
            if (auto body = buildSubgraphModel(graph, node, subgraph.attribute))
                plan.ensureBody(node.name, subgraph.attribute, body->graph) = uniformPlan(body->graph, precision);
    return plan;
}

}  // namespace

PrecisionPlan allFp16Plan(const Graph& graph) {
    return uniformPlan(graph, Precision::Fp16);
}

PrecisionPlan allInt8Plan(const Graph& graph) {
    return uniformPlan(graph, Precision::Int8);
}

std::optional<PlanPrediction> predictPlan(const PlanPredictionRequest& request) {
    const auto stop = [&] { return request.stopRequested && request.stopRequested(); };
    PlanPrediction result;
    result.profile = request.profile;
    result.engine = predictEngine(request.graph, request.plan, request.target);
    result.estimate = estimateLatency(result.engine, request.profile);
    addBodyLayerTimes(result.engine, result.estimate, "", result.bodyLayerMs);
    result.fp16TotalMs = totalMs(request, allFp16Plan(request.graph));
    const PrecisionPlan int8 = allInt8Plan(request.graph);
    result.int8TotalMs = totalMs(request, request.apply ? request.apply(int8) : int8);
    result.layerOfNode.assign(request.graph.nodes().size(), -1);
    result.int8GainMs.assign(result.engine.layers.size(), std::nullopt);
    for (size_t i = 0; i < result.engine.layers.size(); ++i) {
        const PredictedLayer& layer = result.engine.layers[i];
        if (!isComputeLayer(layer)) continue;
        for (NodeId n : layer.nodes) result.layerOfNode[static_cast<size_t>(n)] = static_cast<int>(i);
        if (stop()) return std::nullopt;
        result.int8GainMs[i] = int8Gain(request, layer, result.estimate.totalMs);
    }
    if (stop()) return std::nullopt;
    const PredictedPlanLatency latency(request.graph, request.target, request.profile);
    result.regions = assessInt8Regions(request.plan, latency, Precision::Fp16, request.apply);
    result.regionOfNode.assign(request.graph.nodes().size(), -1);
    for (size_t r = 0; r < result.regions.size(); ++r)
        for (NodeId n : result.regions[r].nodes) result.regionOfNode[static_cast<size_t>(n)] = static_cast<int>(r);
    return result;
}

}  // namespace ql
