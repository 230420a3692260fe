// trt-concat-scales: the inputs and output of a quantized Concat should share one scale.
#include <cmath>

#include "core/lint/lint_context.h"
#include "core/lint/rules/rules.h"
#include "core/model/constant_values.h"
#include "core/model/op_roles.h"

namespace ql::rules {

namespace {

constexpr RuleInfo kInfo{
    "trt-concat-scales", Severity::Warning, kAllTrtVersions,
    "TensorRT moves the QuantizeLinear after a Concat onto each of its inputs. When an input's scale differs from "
    "the output's, every such input gets an extra requantize step; when they are equal the dequantize/quantize pairs "
    "cancel and the Concat is a plain INT8 copy. NVIDIA's Model Optimizer therefore gives the inputs and output of a "
    "Concat one shared scale.",
    "TensorRT Model Optimizer graph_utils.get_concat_eliminated_tensors and int8.py (concat_elimination pass)"};

// A per-tensor quantization: its scale and zero point (0 when absent).
struct TensorQuant {
    float scale = 0.0f;
    int64_t zeroPoint = 0;
};

std::optional<TensorQuant> tensorQuant(const Graph& graph, const Node& qdq) {
    if (qdq.inputs.size() < 2) return std::nullopt;
    const auto scales = constantFloats(graph, qdq.inputs[1]);
    if (!scales || scales->size() != 1) return std::nullopt;
    TensorQuant quant{scales->front(), 0};
    if (qdq.inputs.size() > 2 && qdq.inputs[2] != kNoId) {
        const auto zeroPoints = constantInt64s(graph, qdq.inputs[2]);
        if (!zeroPoints || zeroPoints->size() != 1) return std::nullopt;
        quant.zeroPoint = zeroPoints->front();
    }
    return quant;
}

// ONNX Runtime's asymmetric UINT8 quantization can give equal scales with different zero points: still a requantize.
bool sameQuant(const TensorQuant& a, const TensorQuant& b) {
    return a.zeroPoint == b.zeroPoint &&
           std::fabs(a.scale - b.scale) <= 1e-6f * std::max(std::fabs(a.scale), std::fabs(b.scale));
}

// The quantization an input carries: its DequantizeLinear, reached through ops that keep INT8 values on their grid
// (a MaxPool of YOLO's SPPF, a Reshape), which TensorRT runs in INT8 with the same scale.
std::optional<TensorQuant> inputQuant(const LintContext& context, ValueId value) {
    for (int depth = 0; depth < 8; ++depth) {
        const Node* p = context.producer(value);
        if (p == nullptr || p->inputs.empty()) return std::nullopt;
        if (isOp(*p, "DequantizeLinear")) return tensorQuant(context.graph(), *p);
        if (!keepsValues(*p) || isOp(*p, "Concat")) return std::nullopt;
        value = p->inputs[0];
    }
    return std::nullopt;
}

// The QuantizeLinear that quantizes the Concat's output, directly or after such value-keeping ops.
std::optional<TensorQuant> outputQuant(const Graph& graph, ValueId value, int depth = 0) {
    if (value == kNoId || depth > 8) return std::nullopt;
    for (NodeId c : graph.value(value).consumers) {
        const Node& consumer = graph.node(c);
        if (isOp(consumer, "QuantizeLinear")) {
            if (auto q = tensorQuant(graph, consumer)) return q;
        } else if (keepsValues(consumer) && !isOp(consumer, "Concat") && !consumer.outputs.empty()) {
            if (auto q = outputQuant(graph, consumer.outputs[0], depth + 1)) return q;
        }
    }
    return std::nullopt;
}

std::string describe(const TensorQuant& q) {
    return q.zeroPoint == 0 ? lintText(q.scale) : lintText(q.scale, " (zero point ", q.zeroPoint, ")");
}

class ConcatScalesRule final : public LintRule {
public:
    const RuleInfo& info() const override { return kInfo; }

    void check(const LintContext& context, std::vector<Finding>& findings) const override {
        const Graph& graph = context.graph();
        for (const Node& node : graph.nodes()) {
            if (!isOp(node, "Concat") || node.outputs.empty() || node.outputs[0] == kNoId) continue;
            // Each input quantized by a Q -> DQ pair (maybe before a MaxPool or Reshape), or a DequantizeLinear over
            // a quantized constant.
            std::vector<TensorQuant> inputs;
            for (ValueId in : node.inputs)
                if (auto q = inputQuant(context, in)) inputs.push_back(*q);
            if (inputs.empty()) continue;
            const std::optional<TensorQuant> output = outputQuant(graph, node.outputs[0]);
            const TensorQuant reference = output ? *output : inputs.front();
            std::string differing;
            for (const TensorQuant& q : inputs)
                if (!sameQuant(q, reference)) differing += lintText(differing.empty() ? "" : ", ", describe(q));
            if (differing.empty()) continue;
            findings.push_back(context.finding(
                kInfo, node, Severity::Warning,
                lintText("input scales ", differing, output ? " differ from the output scale " : " differ from ",
                         describe(reference), ": TensorRT adds a requantize on each such input"),
                "give the Concat inputs and its output one shared scale (the largest amax of the group)"));
        }
    }
};

}  // namespace

std::unique_ptr<LintRule> makeConcatScalesRule() {
    return std::make_unique<ConcatScalesRule>();
}

}  // namespace ql::rules
