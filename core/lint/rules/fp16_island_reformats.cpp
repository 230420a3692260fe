// trt-fp16-island-reformats: an FP16 island of the predicted engine between INT8 layers whose reformats cost more
// than INT8 would lose on its own layers, on the GPU lint was given (lint --gpu): one finding per island, with the
// numbers and the plan edit that brings it to INT8.
#include "core/lint/lint_context.h"
#include "core/lint/lint_latency.h"
#include "core/lint/rules/rules.h"

namespace ql::rules {

namespace {

constexpr RuleInfo kInfo{
    "trt-fp16-island-reformats", Severity::Warning, kAllTrtVersions,
    "Needs a GPU (lint --gpu NAME or --gpu-profile FILE, or a project that keeps a GPU profile); without one it stays "
    "silent. An FP16 island between INT8 layers is a group of FP16 layers of the predicted engine that read from an "
    "INT8 layer and are read by one (a Hard-Swish, a PRelu, a Transpose or a padding Concat planned FP16, or wrapped "
    "in Casts by a strongly typed export, between INT8 convolutions): TensorRT converts the INT8 tensors to FP16 and "
    "back around it with Reformat layers, and under strong typing the island also keeps an activation from fusing "
    "into the convolution before it. The rule times the plan and the same plan with the island's nodes INT8 "
    "(realized as the export would: an activation fuses into the INT8 layer before it) on the GPU, and fires when "
    "INT8 there makes the plan faster and spares reformats. One finding per such island, on its first layer: its "
    "layers by name, the INT8 layers around it, what INT8 would save or lose on its layers, the reformats it spares "
    "and what they cost, by how much the plan would be faster (a share of the plan's predicted time), and the note "
    "that planned it FP16 if one did (a placement or `tune` may have kept it FP16 for accuracy). The fix is the plan "
    "edit that brings it to INT8 (a JSON snippet for PLAN.json; for a model that carries Q/DQ, Q/DQ on its inputs "
    "instead of the Casts), to check for accuracy with `compare` or `tune`. It is a warning when the gain is at least "
    "1% of the plan's predicted time, else info. It stays silent on FP16 islands that do not sit between INT8 layers, "
    "on those whose INT8 would not be faster (no INT8 kernel, or the reformats cheaper than what INT8 loses), without "
    "a GPU and inside If/Loop/Scan bodies. The times are estimates; the findings say so.",
    "NVIDIA TensorRT Developer Guide, \"Explicit Quantization\" (Q/DQ placement, fusions of pointwise layers into "
    "INT8 convolutions) and \"Strongly Typed Networks\"; issue 28 (PP-OCRv4 det for TensorRT 11: Casts around "
    "Hard-Swish islands between INT8 convolutions); QuantLens docs/performance-model.md"};

// The INT8 layers around the island, writers first.
std::vector<size_t> int8Neighbours(const EnginePrediction& prediction, const PrecisionIsland& island) {
    std::vector<size_t> layers;
    for (const std::set<size_t>* side : {&island.writers, &island.readers})
        for (size_t i : *side)
            if (prediction.layers[i].precision == EnginePrecision::Int8) layers.push_back(i);
    return layers;
}

bool hasInt8(const EnginePrediction& prediction, const std::set<size_t>& layers) {
    for (size_t i : layers)
        if (prediction.layers[i].precision == EnginePrecision::Int8) return true;
    return false;
}

// " (planned FP16: why)" from the first node with a note or reason, else empty.
std::string plannedBecause(const PrecisionPlan& plan, const std::vector<NodeId>& nodes) {
    for (NodeId n : nodes)
        if (!plan.explanation(n).empty()) return " (planned so: " + plan.explanation(n) + ")";
    return {};
}

class Fp16IslandReformatsRule final : public LintRule {
public:
    const RuleInfo& info() const override { return kInfo; }

    void check(const LintContext& context, std::vector<Finding>& findings) const override {
        const LintLatency* latency = context.latency();
        if (latency == nullptr) return;
        const Graph& graph = context.graph();
        const EnginePrediction& prediction = latency->prediction();
        const PlanTime now = latency->planTime();
        for (const PrecisionIsland& island : latency->islands(EnginePrecision::Fp16)) {
            if (!hasInt8(prediction, island.writers) || !hasInt8(prediction, island.readers)) continue;
            const std::vector<NodeId> nodes = latency->nodesOf(island);
            const PlanTime int8 = latency->time(latency->withPrecision(nodes, Precision::Int8));
            const RegionDecision d =
                regionDecision(nodes, static_cast<int64_t>(island.layers.size()), int8, now, Precision::Fp16);
            if (!d.pays() || d.reformats >= 0) continue;
            const std::vector<NodeId> names = latency->layerNames(island.layers);
            const Node& on = graph.node(names.front());
            const std::string message =
                lintText("FP16 island of ", d.layers, d.layers == 1 ? " layer (" : " layers (",
                         nodeNamesText(graph, names), ") between INT8 layers (",
                         nodeNamesText(graph, latency->layerNames(int8Neighbours(prediction, island))), ")",
                         plannedBecause(context.plan(), nodes), "; in INT8: ", d.why, latency->onGpuText(d.netMs()));
            const std::string edit = planSnippet(graph, context.plan(), nodes, Precision::Int8);
            const std::string fix =
                context.explicitQuantization()
                    ? lintText("quantize the island too: Q/DQ on its inputs in place of the Casts (as a plan: ", edit,
                               "); check the accuracy with `compare`")
                    : lintText("bring the island to INT8, in PLAN.json: ", edit,
                               "; check the accuracy with `compare` (or let `tune --objective latency` decide)");
            findings.push_back(context.finding(
                kInfo, on, latency->significant(d.netMs()) ? Severity::Warning : Severity::Info, message, fix));
        }
    }
};

}  // namespace

std::unique_ptr<LintRule> makeFp16IslandReformatsRule() {
    return std::make_unique<Fp16IslandReformatsRule>();
}

}  // namespace ql::rules
