// trt-resize-qdq: Resize needs no Q/DQ of its own; TensorRT runs it in INT8 between quantized layers.
#include "core/lint/lint_context.h"
#include "core/lint/rules/rules.h"

namespace ql::rules {

namespace {

constexpr RuleInfo kInfo{
    "trt-resize-qdq", Severity::Info, kAllTrtVersions,
    "TensorRT runs a Resize in INT8 by itself when it sits between quantized layers (Resize -> Q/DQ -> Conv). A "
    "QuantizeLinear/DequantizeLinear pair placed before a Resize whose output is not quantized again only adds a "
    "quantize/dequantize step: the Resize still runs in float. Put the pair after the Resize, in front of the layer "
    "that consumes it.",
    "NVIDIA/TensorRT#2976 (NVIDIA: \"no need to insert Q/DQ before resize, we should run resize in INT8 automatically "
    "for patterns like resize -> Q/DQ -> conv\")"};

bool quantizedAgain(const Graph& graph, const Node& resize) {
    if (resize.outputs.empty() || resize.outputs[0] == kNoId) return false;
    for (NodeId c : graph.value(resize.outputs[0]).consumers)
        if (isOp(graph.node(c), "QuantizeLinear")) return true;
    return false;
}

class ResizeQdqRule final : public LintRule {
public:
    const RuleInfo& info() const override { return kInfo; }

    void check(const LintContext& context, std::vector<Finding>& findings) const override {
        const Graph& graph = context.graph();
        for (const Node& node : graph.nodes()) {
            if (!isOp(node, "Resize") || node.inputs.empty()) continue;
            const Node* dq = context.producer(node.inputs[0]);
            if (dq == nullptr || !isOp(*dq, "DequantizeLinear") || quantizedAgain(graph, node)) continue;
            findings.push_back(context.finding(
                kInfo, node, Severity::Info,
                lintText("Q/DQ '", dq->name,
                         "' before this Resize is not followed by a quantize after it: the Resize "
                         "runs in float and the pair only adds work"),
                "move the QuantizeLinear/DequantizeLinear after the Resize, in front of the layer that consumes it"));
        }
    }
};

}  // namespace

std::unique_ptr<LintRule> makeResizeQdqRule() {
    return std::make_unique<ResizeQdqRule>();
}

}  // namespace ql::rules
