// trt-concat-scales: the inputs and output of a quantized Concat should share one scale.
#include <cmath>

#include "core/lint/lint_context.h"
#include "core/lint/rules/rules.h"
#include "core/model/constant_values.h"

namespace ql::rules {

namespace {

constexpr RuleInfo kInfo{
    "trt-concat-scales", Severity::Warning, kAllTrtVersions,
    "TensorRT moves the QuantizeLinear after a Concat onto each of its inputs. When an input's scale differs from "
    "the output's, every such input gets an extra requantize step; when they are equal the dequantize/quantize pairs "
    "cancel and the Concat is a plain INT8 copy. NVIDIA's Model Optimizer therefore gives the inputs and output of a "
    "Concat one shared scale.",
    "TensorRT Model Optimizer graph_utils.get_concat_eliminated_tensors and int8.py (concat_elimination pass); "
    "TRT-INT8-RULES.md TRT-QDQ-CONCAT-SCALES"};

std::optional<float> scalarScale(const Graph& graph, const Node& qdq) {
    if (qdq.inputs.size() < 2) return std::nullopt;
    const auto scales = constantFloats(graph, qdq.inputs[1]);
    if (!scales || scales->size() != 1) return std::nullopt;
    return scales->front();
}

bool sameScale(float a, float b) {
    return std::fabs(a - b) <= 1e-6f * std::max(std::fabs(a), std::fabs(b));
}

class ConcatScalesRule final : public LintRule {
public:
    const RuleInfo& info() const override { return kInfo; }

    void check(const LintContext& context, std::vector<Finding>& findings) const override {
        const Graph& graph = context.graph();
        for (const Node& node : graph.nodes()) {
            if (!isOp(node, "Concat") || node.outputs.empty() || node.outputs[0] == kNoId) continue;
            std::vector<float> inputs;
            for (ValueId in : node.inputs) {
                const Node* p = context.producer(in);
                if (p == nullptr || !isOp(*p, "DequantizeLinear")) continue;
                if (auto s = scalarScale(graph, *p)) inputs.push_back(*s);
            }
            if (inputs.empty()) continue;
            std::optional<float> output;
            for (NodeId c : graph.value(node.outputs[0]).consumers)
                if (isOp(graph.node(c), "QuantizeLinear")) output = scalarScale(graph, graph.node(c));
            const float reference = output ? *output : inputs.front();
            std::string differing;
            for (float s : inputs)
                if (!sameScale(s, reference)) differing += lintText(differing.empty() ? "" : ", ", s);
            if (differing.empty()) continue;
            findings.push_back(context.finding(
                kInfo, node, Severity::Warning,
                lintText("input scales ", differing, output ? " differ from the output scale " : " differ from ",
                         reference, ": TensorRT adds a requantize on each such input"),
                "give the Concat inputs and its output one shared scale (the largest amax of the group)"));
        }
    }
};

}  // namespace

std::unique_ptr<LintRule> makeConcatScalesRule() {
    return std::make_unique<ConcatScalesRule>();
}

}  // namespace ql::rules
