#pragma once
// What the window shows of a plan's predicted engine (issue 28, item 4): the time of every layer of the plan's
// engine on one GPU, what INT8 gains over FP16 in each layer, and the plan's total beside the all-FP16 and all-INT8
// plans' totals. The CLI's `predict` prints the same engine (prediction_report.h); both compare with allFp16Plan().
//
// A layer's INT8 gain is a difference of whole-plan totals, so it includes the reformats the layer's precision
// adds or removes at its borders: for an INT8 layer, the plan's total with the layer's nodes requested FP16 minus the
// plan's total; for an FP16 layer, the plan's total minus its total with the nodes requested INT8 (what INT8 would
// save). Positive: INT8 pays; negative: it costs. None for a layer that cannot change (FP32, no precision to choose,
// or INT8 that TensorRT's rules would not keep). One prediction per such layer: a few milliseconds each, run off any
// interactive thread.
//
// A layer's gain alone can mislead inside an INT8 island (INT8 layers handing INT8 tensors to each other): moving one
// of its layers to FP16 adds reformats on both sides, so each layer may gain while the island as a whole, whose
// border reformats are nobody's layer's, costs. The island's own verdict is assessInt8Regions()'s
// (latency_regions.h), what `tune --objective latency` decides on: the whole island to FP16 against the plan.
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/engine/engine_prediction.h"
#include "core/engine/latency_model.h"
#include "core/quant/latency_regions.h"

namespace ql {

struct PlanPrediction {
    GpuProfile profile;
    EnginePrediction engine;  // of the plan
    LatencyEstimate estimate;
    double fp16TotalMs = 0.0;                       // allFp16Plan()'s total
    double int8TotalMs = 0.0;                       // allInt8Plan()'s total
    std::vector<int> layerOfNode;                   // per node: the index of the layer computing it, -1 for none
    std::vector<std::optional<double>> int8GainMs;  // per layer of `engine`; see above
    std::vector<RegionDecision> regions;            // the plan's INT8 islands, each moved whole to FP16
    std::vector<int> regionOfNode;                  // per node: its island in `regions`, -1 for none
    // The time of each layer of the If/Loop/Scan bodies (one run of the body), on its layer's first node, keyed by
    // the node's path and name ("route/then_branch/t1"); a body layer's INT8 gain is not predicted.
    std::map<std::string, double> bodyLayerMs;

    // The layer computing `node`, or null.
    const PredictedLayer* layerOf(NodeId node) const;
    std::optional<double> layerMs(NodeId node) const;
    std::optional<double> int8Gain(NodeId node) const;
    // The INT8 island `node` belongs to, or null.
    const RegionDecision* regionOf(NodeId node) const;
    // The first node of the layer of `node` in the layer's order: the one the window shows a fused layer's time on.
    bool isLayerLead(NodeId node) const;
};

// Every node FP16, the If/Loop/Scan bodies' too: what an engine built with --fp16 alone runs (the CLI's and the
// window's all-FP16 reference).
PrecisionPlan allFp16Plan(const Graph& graph);
// Every node INT8, the bodies' too: with TensorRT's rules applied (PlanPredictionRequest::apply), INT8 wherever
// TensorRT can run it (the window's all-INT8 reference; the default placement keeps some layers float, e.g. a YOLO
// head).
PrecisionPlan allInt8Plan(const Graph& graph);

struct PlanPredictionRequest {
    const Graph& graph;
    const PrecisionPlan& plan;  // effective precisions decided
    TrtTarget target;
    const GpuProfile& profile;
    ApplyPolicies apply;  // the TensorRT rules (and FP16 guard) the plan's precisions were decided with
    std::function<bool()> stopRequested = {};  // polled between layers: a superseded request stops early
};

// nullopt when stopRequested() said to stop.
std::optional<PlanPrediction> predictPlan(const PlanPredictionRequest& request);

}  // namespace ql
