// trt-int8-island-slower: an INT8 island of the predicted engine whose reformats cost more than its INT8 saves on
// the GPU lint was given (lint --gpu): one finding per island, with the numbers and the plan edit that keeps it FP16.
#include <algorithm>

#include "core/lint/lint_context.h"
#include "core/lint/lint_latency.h"
#include "core/lint/rules/rules.h"

namespace ql::rules {

namespace {

constexpr RuleInfo kInfo{
    "trt-int8-island-slower", Severity::Warning, kAllTrtVersions,
    "Needs a GPU (lint --gpu NAME or --gpu-profile FILE, or a project that keeps a GPU profile); without one it stays "
    "silent. An INT8 island is a group of INT8 layers of the engine TensorRT would build from the plan (predicted as "
    "`predict` does: fusions, formats, Reformat layers) that hand INT8 tensors to each other; where it meets FP16 "
    "layers, TensorRT inserts Reformat layers (FP16 HWC8 -> INT8 CHW32 and back). The rule times the plan and the "
    "same plan with the island in FP16 on the GPU (the latency model of docs/performance-model.md) and fires when "
    "the island makes the plan slower: what its INT8 saves on its own layers (nothing, where INT8 is slower there) "
    "is less than what its reformats cost. "
    "One finding per such island, on its first INT8 layer: how many layers, their names, what INT8 saves, how many "
    "reformats and what they cost, and by how much the plan is slower than with the island in FP16, as a share of "
    "the plan's predicted time. The fix is the plan edit that keeps the island FP16 (a JSON snippet for PLAN.json; "
    "for a model that carries Q/DQ, remove the Q/DQ on the island's inputs); `tune --objective latency` makes such "
    "moves while keeping accuracy within a target. It is a warning when the loss is at least 1% of the plan's "
    "predicted time, else info; when more than three islands each cost less than that, they make one finding (to "
    "avoid noise: a densely connected network has dozens), on the costliest, with their sum, the three costliest and "
    "the edit for them all, a warning when together they cost 1% or more. It stays silent on islands that pay or break "
    "even, without a GPU, inside If/Loop/"
    "Scan bodies, and on a plan with no INT8 layer. The times are estimates, unfitted unless the GPU profile was "
    "fitted to your engine reports (`fit-gpu`); the findings say so.",
    "NVIDIA TensorRT Developer Guide, \"Reformat-Free Network I/O Tensors\" and \"Explicit Quantization\" (Q/DQ "
    "placement: each precision change is a reformat); NVIDIA TensorRT Best Practices, \"Layer Fusion\"; issue 28 "
    "(roboflow/rf-detr#1024: INT8 engines slower than FP16); QuantLens docs/performance-model.md"};

// Islands under the significant share each are one finding of their own up to this many; beyond, one for them all.
constexpr size_t kMinorIslandsAlone = 3;
constexpr size_t kIslandsShown = 3;

// "INT8 island of 2 layers (conv_a and conv_b)"
std::string islandText(const LintContext& context, const LintLatency& latency, const Int8IslandAssessment& assessed) {
    const int64_t layers = assessed.decision.layers;
    return lintText("INT8 island of ", layers, layers == 1 ? " layer (" : " layers (",
                    nodeNamesText(context.graph(), latency.layerNames(assessed.island.layers)), ")");
}

std::string fixOf(const LintContext& context, const std::vector<NodeId>& nodes, bool several) {
    const std::string keep = planSnippet(context.graph(), context.plan(), nodes, Precision::Fp16);
    const char* what = several ? "the islands" : "the island";
    if (context.explicitQuantization())
        return lintText("keep ", what, " FP16: remove the Q/DQ on the inputs of their layers (as a plan: ", keep, ")");
    return lintText("keep ", what, " FP16, in PLAN.json: ", keep,
                    " (or let `tune --objective latency` decide within your accuracy target)");
}

Finding islandFinding(const LintContext& context, const LintLatency& latency, const Int8IslandAssessment& assessed) {
    const RegionDecision& d = assessed.decision;
    const double lossMs = -d.netMs();
    const Node& on = context.graph().node(latency.layerNames(assessed.island.layers).front());
    return context.finding(kInfo, on, latency.significant(lossMs) ? Severity::Warning : Severity::Info,
                           lintText(islandText(context, latency, assessed), ": ", d.why, latency.onGpuText(lossMs)),
                           fixOf(context, d.nodes, false));
}

// Many islands that each cost little: one finding, on the costliest, with their sum and the largest three.
Finding minorIslandsFinding(const LintContext& context, const LintLatency& latency,
                            std::vector<const Int8IslandAssessment*> minor) {
    std::stable_sort(minor.begin(), minor.end(),
                     [](const auto* a, const auto* b) { return a->decision.netMs() < b->decision.netMs(); });
    double lossMs = 0.0;
    std::vector<NodeId> nodes;
    for (const auto* assessed : minor) {
        lossMs -= assessed->decision.netMs();
        nodes.insert(nodes.end(), assessed->decision.nodes.begin(), assessed->decision.nodes.end());
    }
    std::string message = lintText(
        minor.size(), " INT8 islands make the plan slower than FP16 would, each by less than ", kSignificantLatencyText,
        " of its time; together by ", millisecondsText(lossMs), latency.onGpuText(lossMs), ". The costliest: ");
    for (size_t i = 0; i < kIslandsShown; ++i)
        message += lintText(i > 0 ? "; " : "", islandText(context, latency, *minor[i]), ": ", minor[i]->decision.why);
    message += lintText("; and ", minor.size() - kIslandsShown, " more");
    const Node& on = context.graph().node(latency.layerNames(minor.front()->island.layers).front());
    return context.finding(kInfo, on, latency.significant(lossMs) ? Severity::Warning : Severity::Info, message,
                           fixOf(context, nodes, true));
}

class Int8IslandSlowerRule final : public LintRule {
public:
    const RuleInfo& info() const override { return kInfo; }

    void check(const LintContext& context, std::vector<Finding>& findings) const override {
        const LintLatency* latency = context.latency();
        if (latency == nullptr) return;
        std::vector<const Int8IslandAssessment*> minor;
        for (const Int8IslandAssessment& assessed : latency->int8Islands()) {
            if (!assessed.slower()) continue;
            if (latency->significant(-assessed.decision.netMs()))
                findings.push_back(islandFinding(context, *latency, assessed));
            else
                minor.push_back(&assessed);
        }
        if (minor.size() > kMinorIslandsAlone) {
            findings.push_back(minorIslandsFinding(context, *latency, std::move(minor)));
            return;
        }
        for (const auto* assessed : minor) findings.push_back(islandFinding(context, *latency, *assessed));
    }
};

}  // namespace

std::unique_ptr<LintRule> makeInt8IslandSlowerRule() {
    return std::make_unique<Int8IslandSlowerRule>();
}

}  // namespace ql::rules
