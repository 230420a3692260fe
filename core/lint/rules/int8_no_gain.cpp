// trt-int8-no-gain: INT8 layers of the predicted engine that run no faster than they would in FP16 on the GPU lint
// was given (lint --gpu): depthwise convolutions, channels padded to 32, memory-bound or launch-bound layers. One
// finding per model listing them with their summed times, and the plan edit that keeps them FP16.
#include <algorithm>
#include <map>

#include "core/lint/lint_context.h"
#include "core/lint/lint_latency.h"
#include "core/lint/rules/rules.h"

namespace ql::rules {

namespace {

constexpr RuleInfo kInfo{
    "trt-int8-no-gain", Severity::Warning, kAllTrtVersions,
    "Needs a GPU (lint --gpu NAME or --gpu-profile FILE, or a project that keeps a GPU profile); without one it stays "
    "silent. INT8 costs accuracy; it is worth it where the layer runs faster. The rule times each INT8 layer of the "
    "predicted engine and the same ONNX nodes as FP16 layers (the plan with every INT8 layer FP16, predicted and "
    "timed the same way, each INT8 layer matched with the FP16 layers of its nodes) on the GPU, and collects the "
    "layers whose INT8 time is not lower than their FP16 time: depthwise convolutions (no tensor-core gain on the "
    "CUDA cores), layers whose channels INT8 pads to 32 where FP16 pads to 8, memory-bound layers and layers so small "
    "that the launch dominates. One finding per model, to avoid noise (as trt-int8-channel-alignment aggregates), on "
    "the slowest of them: how many, the largest by name with why and their INT8 and FP16 times, their summed INT8 and "
    "FP16 times and the difference as a share of the plan's predicted time. The fix is the plan edit that keeps them "
    "FP16 (a JSON snippet for PLAN.json; for a model that carries Q/DQ, remove the Q/DQ on their inputs); where their "
    "neighbours stay INT8, moving a layer alone adds reformats, which trt-int8-island-slower and `tune --objective "
    "latency` weigh. The layers of an island trt-int8-island-slower reports (when it runs) are left to it. It is a "
    "warning when INT8 makes them slower by at least 1% of the plan's predicted time, else info. It stays silent when "
    "every INT8 layer gains, without a GPU and inside If/Loop/Scan bodies. The times are estimates; the finding says "
    "so.",
    "NVIDIA TensorRT Best Practices, \"Quantization\" (INT8 gains on compute-bound layers) and Developer Guide, "
    "\"Data Format Descriptions\" (INT8 CHW32, FP16 HWC8); NVIDIA Model Optimizer graph_utils.py (small and depthwise "
    "convolutions left FP16); issue 28 (depthwise, small K/C, memory-bound layers); QuantLens "
    "docs/performance-model.md"};

constexpr size_t kLayersShown = 3;
constexpr double kTieMs = 1e-9;

struct NoGain {
    size_t layer = 0;  // in the linted plan's prediction
    double int8Ms = 0.0;
    double fp16Ms = 0.0;
    std::string why;  // "depthwise", "channels padded to 32", "memory-bound", "launch-bound"
};

std::string whyNoGain(const PredictedLayer& layer, const LayerTime& time, int64_t fp16Macs) {
    if (layer.costClass == CostClass::Depthwise) return "depthwise";
    if (time.overheadMs >= std::max(time.computeMs, time.memoryMs)) return "launch-bound";
    if (layer.macs > 0 && fp16Macs > 0 && layer.macs > fp16Macs + fp16Macs / 4) return "channels padded to 32";
    if (!time.computeBound()) return "memory-bound";
    return "compute-bound, no faster";
}

// INT8 layers of the linted plan no faster than the FP16 layers of the same nodes; the islands another rule reports
// left out. Slowest first.
std::vector<NoGain> layersWithoutGain(const LintContext& context, const LintLatency& latency) {
    const EnginePrediction& prediction = latency.prediction();
    std::vector<NodeId> int8Nodes;
    std::vector<bool> reported(prediction.layers.size(), false);
    if (context.runs("trt-int8-island-slower"))
        for (const Int8IslandAssessment& assessed : latency.int8Islands())
            if (assessed.slower())
                for (size_t i : assessed.island.layers) reported[i] = true;
    for (const PredictedLayer& layer : prediction.layers)
        if (layer.kind != PredictedKind::Reformat && layer.precision == EnginePrecision::Int8)
            int8Nodes.insert(int8Nodes.end(), layer.nodes.begin(), layer.nodes.end());
    if (int8Nodes.empty()) return {};
    const TimedEngine fp16 = latency.timed(latency.withPrecision(int8Nodes, Precision::Fp16));
    std::map<NodeId, size_t> fp16LayerOf;
    for (size_t i = 0; i < fp16.prediction.layers.size(); ++i)
        if (fp16.prediction.layers[i].kind != PredictedKind::Reformat)
            for (NodeId n : fp16.prediction.layers[i].nodes) fp16LayerOf[n] = i;
    std::vector<NoGain> found;
    for (size_t i = 0; i < prediction.layers.size(); ++i) {
        const PredictedLayer& layer = prediction.layers[i];
        if (layer.kind == PredictedKind::Reformat || layer.nodes.empty() || reported[i] ||
            layer.precision != EnginePrecision::Int8)
            continue;
        // The FP16 layers of its nodes, matched only where they compute none of another layer's nodes.
        std::set<size_t> matched;
        for (NodeId n : layer.nodes)
            if (auto it = fp16LayerOf.find(n); it != fp16LayerOf.end()) matched.insert(it->second);
        bool clean = !matched.empty();
        double fp16Ms = 0.0;
        int64_t fp16Macs = 0;
        for (size_t m : matched) {
            for (NodeId n : fp16.prediction.layers[m].nodes)
                clean = clean && std::find(layer.nodes.begin(), layer.nodes.end(), n) != layer.nodes.end();
            fp16Ms += fp16.estimate.layers[m].ms;
            fp16Macs += fp16.prediction.layers[m].macs;
        }
        const LayerTime& int8 = latency.estimate().layers[i];
        if (!clean || int8.ms < fp16Ms - kTieMs) continue;
        found.push_back({i, int8.ms, fp16Ms, whyNoGain(layer, int8, fp16Macs)});
    }
    std::stable_sort(found.begin(), found.end(), [](const NoGain& a, const NoGain& b) { return a.int8Ms > b.int8Ms; });
    return found;
}

std::string layersText(const Graph& graph, const LintLatency& latency, const std::vector<NoGain>& layers) {
    std::vector<size_t> indexes;
    for (const NoGain& l : layers) indexes.push_back(l.layer);
    const std::vector<NodeId> names = latency.layerNames(indexes);
    std::string text;
    const size_t shown = std::min(kLayersShown, layers.size());
    for (size_t i = 0; i < shown; ++i) {
        const NoGain& l = layers[i];
        if (i > 0) text += i + 1 == layers.size() ? " and " : ", ";
        text += lintText(graph.node(names[i]).name, " (", l.why, ": ", millisecondsText(l.int8Ms), " INT8, ",
                         millisecondsText(l.fp16Ms), " FP16)");
    }
    if (shown < layers.size()) text += lintText(" and ", layers.size() - shown, " more");
    return text;
}

class Int8NoGainRule final : public LintRule {
public:
    const RuleInfo& info() const override { return kInfo; }

    void check(const LintContext& context, std::vector<Finding>& findings) const override {
        const LintLatency* latency = context.latency();
        if (latency == nullptr) return;
        const std::vector<NoGain> layers = layersWithoutGain(context, *latency);
        if (layers.empty()) return;
        const Graph& graph = context.graph();
        const EnginePrediction& prediction = latency->prediction();
        double int8Ms = 0.0, fp16Ms = 0.0;
        std::vector<NodeId> nodes;
        for (const NoGain& l : layers) {
            int8Ms += l.int8Ms;
            fp16Ms += l.fp16Ms;
            const auto& fused = prediction.layers[l.layer].nodes;
            nodes.insert(nodes.end(), fused.begin(), fused.end());
        }
        std::sort(nodes.begin(), nodes.end());
        const double lossMs = int8Ms - fp16Ms;
        const std::string message = lintText(
            layers.size(), layers.size() == 1 ? " INT8 layer runs" : " INT8 layers run",
            " no faster than in FP16: ", layersText(graph, *latency, layers), "; together ", millisecondsText(int8Ms),
            " in INT8 against ", millisecondsText(fp16Ms), " in FP16", latency->onGpuText(std::max(lossMs, 0.0)));
        const std::string keep = planSnippet(graph, context.plan(), nodes, Precision::Fp16);
        const std::string fix =
            lintText(layers.size() == 1 ? "keep it FP16 (as fast, more accurate)"
                                        : "keep them FP16 (as fast, more "
                                          "accurate)",
                     context.explicitQuantization() ? ": remove the Q/DQ on their inputs (as a plan: " + keep + ")"
                                                    : ", in PLAN.json: " + keep,
                     "; where the layers around stay INT8, moving one alone adds reformats: `tune --objective "
                     "latency` weighs them");
        const Node& on = graph.node(latency->layerNames({layers.front().layer}).front());
        findings.push_back(context.finding(kInfo, on, latency->significant(lossMs) ? Severity::Warning : Severity::Info,
                                           message, fix));
    }
};

}  // namespace

std::unique_ptr<LintRule> makeInt8NoGainRule() {
    return std::make_unique<Int8NoGainRule>();
}

}  // namespace ql::rules
