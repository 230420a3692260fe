// trt-qdq-activation-per-channel: activations are quantized per tensor in TensorRT.
#include <set>

#include "core/lint/lint_context.h"
#include "core/lint/rules/rules.h"

namespace ql::rules {

namespace {

constexpr RuleInfo kInfo{
    "trt-qdq-activation-per-channel", Severity::Error, kAllTrtVersions,
    "TensorRT supports per-channel scales only for weights (constants). An activation (a tensor computed at run time) "
    "must have a single scale; a QuantizeLinear/DequantizeLinear on an activation with one scale per channel is "
    "rejected when the engine is built.",
    "TensorRT NvInfer.h IQuantizeLayer (\"Activations cannot be quantized per-channel\"); onnx-tensorrt "
    "QuantDequantLinearHelper; TensorRT Developer Guide 8.x \"Use per-tensor quantization for activations\"; "
    "NVIDIA/TensorRT#4008 (SmoothQuant-style per-channel activation scales reaching a MaxPool: \"Assertion numScales "
    "== mGlobRefs.scale.count() failed\")"};

// A pooling or elementwise consumer of the per-channel tensor: where TensorRT's assertion of #4008 fires.
const Node* poolingOrElementwiseConsumer(const Graph& graph, const Node& dequantize) {
    static const std::set<std::string> ops = {
        "MaxPool", "AveragePool", "GlobalAveragePool", "GlobalMaxPool", "Add", "Mul", "Sub", "Div", "Concat"};
    if (dequantize.outputs.empty() || dequantize.outputs[0] == kNoId) return nullptr;
    for (NodeId c : graph.value(dequantize.outputs[0]).consumers)
        if (ops.count(graph.node(c).opType) > 0) return &graph.node(c);
    return nullptr;
}

class QdqActivationPerChannelRule final : public LintRule {
public:
    const RuleInfo& info() const override { return kInfo; }

    void check(const LintContext& context, std::vector<Finding>& findings) const override {
        const Graph& graph = context.graph();
        std::set<NodeId> reported;
        for (const QdqLink& link : graph.qdqLinks()) {
            if (link.isWeight || !link.paramsKnown || !link.params.perChannel()) continue;
            if (!reported.insert(link.dequantize).second) continue;
            const std::string tensor = link.source == kNoId ? std::string("?") : graph.value(link.source).name;
            const Node* pooling = poolingOrElementwiseConsumer(graph, graph.node(link.dequantize));
            findings.push_back(context.finding(
                kInfo, graph.node(link.dequantize), Severity::Error,
                lintText("activation '", tensor, "' is quantized per channel (", link.params.scales.size(),
                         " scales on axis ", link.params.axis, "); TensorRT only takes one scale for activations",
                         pooling == nullptr
                             ? std::string()
                             : lintText(" and stops at ", pooling->opType, " '", pooling->name,
                                        "' with \"Assertion numScales == mGlobRefs.scale.count() failed\" (per-channel "
                                        "smoothing scales, as SmoothQuant writes them, must be folded into the "
                                        "weights first)")),
                "use a single scale for this tensor (the largest amax over its channels)"));
        }
    }
};

}  // namespace

std::unique_ptr<LintRule> makeQdqActivationPerChannelRule() {
    return std::make_unique<QdqActivationPerChannelRule>();
}

}  // namespace ql::rules
