#include "core/engine/engine_mismatches.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <string_view>

namespace ql {

namespace {

// The rules about Q/DQ placement that keeps TensorRT from fusing a quantize or dequantize into a layer.
constexpr std::array<std::string_view, 6> kFusionRules = {
    "trt-residual-add-unquantized-input",
    "trt-qdq-blocks-bn-fusion",
    "trt-requantize",
    "trt-concat-scales",
    "trt-shared-scale-range",
    "trt-resize-qdq",
};

std::string upper(std::string text) {
    for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return text;
}

std::string milliseconds(double ms) {
    char text[32];
    std::snprintf(text, sizeof text, "%.4g ms", ms);
    return text;
}

// The finding that best explains why a planned INT8 node did not run INT8: any lint finding on it except the
// calibration checks (they change ranges, not kernels).
const Finding* int8Finding(const PlannedNode& plan) {
    for (const Finding& f : plan.findings)
        if (!f.ruleId.starts_with("calib-")) return &f;
    return nullptr;
}

const Finding* fusionFinding(const PlannedNode& plan) {
    for (const Finding& f : plan.findings)
        if (std::find(kFusionRules.begin(), kFusionRules.end(), f.ruleId) != kFusionRules.end()) return &f;
    return nullptr;
}

std::string precisionReason(Precision planned, EnginePrecision actual, const EngineLayer& layer,
                            const Finding* finding) {
    const std::string head =
        upper(precisionName(planned)) + " planned, " + upper(enginePrecisionName(actual)) + " ran: ";
    if (finding) return head + finding->message;
    if (planned == Precision::Int8)
        return head + "no INT8 tactic" + (layer.tactic.empty() ? "" : " (TensorRT chose " + layer.tactic + ")");
    if (actual == EnginePrecision::Int8) return head + "TensorRT fused it into an INT8 layer";
    if (planned == Precision::Fp32) return head + "reduced precision (built with FP16 enabled, or fused into FP16)";
    return head + "TensorRT kept higher precision (no faster lower-precision tactic)";
}

std::optional<PrecisionMismatch> precisionMismatch(const NodeRun& run, const EngineReport& report,
                                                   const PlannedNode& plan) {
    // Names compared as text: two const char* compare as addresses, equal only where the linker merged the literals
    // (an -O1 ASan build reported "INT8 planned, INT8 ran").
    if (!isComputePrecision(run.precision) ||
        std::string_view(enginePrecisionName(run.precision)) == precisionName(plan.effective))
        return std::nullopt;
    const size_t layer = run.layers.front();
    const Finding* finding = plan.effective == Precision::Int8 ? int8Finding(plan) : nullptr;
    return PrecisionMismatch{MismatchKind::Precision,
                             run.node,
                             layer,
                             precisionName(plan.effective),
                             enginePrecisionName(run.precision),
                             precisionReason(plan.effective, run.precision, report.layers[layer], finding),
                             finding ? finding->ruleId : std::string()};
}

bool isQdqNode(const Graph& graph, NodeId node) {
    const std::string& op = graph.node(node).opType;
    return op == "QuantizeLinear" || op == "DequantizeLinear";
}

// The engine layer that writes `tensor` before `index`, if any.
std::optional<size_t> producerLayer(const EngineReport& report, size_t index, const std::string& tensor) {
    for (size_t j = index; j-- > 0;)
        for (const EngineTensor& out : report.layers[j].outputs)
            if (out.name == tensor) return j;
    return std::nullopt;
}

// A Q/DQ TensorRT kept as a reformat between two engine layers: reported on the first compute node of the layer
// whose output it converts (else of the layer it feeds).
std::optional<PrecisionMismatch> reformatMismatch(size_t index, const EngineReport& report,
                                                  const EngineMapping& mapping, const EngineAnalysis& analysis,
                                                  const Graph& graph, const PlannedPrecisions& planned) {
    const EngineLayer& layer = report.layers[index];
    const auto& nodes = mapping.layers[index].nodes;
    const bool qdq =
        layer.origin == "QDQ" || std::any_of(nodes.begin(), nodes.end(), [&](NodeId n) { return isQdqNode(graph, n); });
    if (!qdq || layer.inputs.empty()) return std::nullopt;
    const auto producer = producerLayer(report, index, layer.inputs.front().name);
    if (!producer) return std::nullopt;  // it reads an engine input: nothing to fuse it into
    for (const auto candidate : {std::optional<size_t>(producer), mapping.layers[index].feeds}) {
        if (!candidate) continue;
        for (NodeId node : mapping.layers[*candidate].nodes) {
            const auto& plan = planned[static_cast<size_t>(node)];
            if (isQdqNode(graph, node) || !plan) continue;
            const Finding* finding = fusionFinding(*plan);
            const EnginePrecision from = layer.inputs.front().precision;
            const EnginePrecision to = analysis.layerPrecisions[index];
            std::string reason = "Q/DQ not fused: extra reformat '" + layer.name + "'";
            if (layer.timeMs) reason += " (" + milliseconds(*layer.timeMs) + ")";
            reason += " converts " + upper(enginePrecisionName(from)) + " to " + upper(enginePrecisionName(to));
            if (finding) reason += "; " + finding->message;
            return PrecisionMismatch{MismatchKind::Reformat,
                                     node,
                                     index,
                                     precisionName(plan->effective),
                                     enginePrecisionName(analysis.layerPrecisions[*candidate]),
                                     std::move(reason),
                                     finding ? finding->ruleId : std::string()};
        }
    }
    return std::nullopt;
}

}  // namespace

std::vector<PrecisionMismatch> findMismatches(const EngineReport& report, const EngineMapping& mapping,
                                              const EngineAnalysis& analysis, const Graph& graph,
                                              const PlannedPrecisions& planned) {
    std::vector<PrecisionMismatch> mismatches;
    for (const NodeRun& run : analysis.nodes)
        if (const auto& plan = planned[static_cast<size_t>(run.node)])
            if (auto m = precisionMismatch(run, report, *plan)) mismatches.push_back(std::move(*m));
    for (size_t i = 0; i < report.layers.size(); ++i)
        if (report.layers[i].isReformat())
            if (auto m = reformatMismatch(i, report, mapping, analysis, graph, planned))
                mismatches.push_back(std::move(*m));
    std::stable_sort(mismatches.begin(), mismatches.end(),
                     [](const PrecisionMismatch& a, const PrecisionMismatch& b) { return a.node < b.node; });
    return mismatches;
}

}  // namespace ql
