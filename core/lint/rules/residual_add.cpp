// trt-residual-add-unquantized-input: a residual Add after an INT8 conv fuses into it only when its skip input is
// quantized, and Q/DQ belong on the skip input, not on the conv -> Add edge.
#include "core/lint/lint_context.h"
#include "core/lint/rules/rules.h"

namespace ql::rules {

namespace {

constexpr RuleInfo kInfo{
    "trt-residual-add-unquantized-input", Severity::Warning, kAllTrtVersions,
    "TensorRT fuses a residual Add into the convolution that produces one of its inputs, and the fused layer outputs "
    "INT8 only when the other (skip) input is INT8 too. So NVIDIA's tools put a QuantizeLinear/DequantizeLinear pair "
    "on the skip input and none on the conv -> Add edge. An unquantized skip input keeps the fused output in float: "
    "the next quantize cannot fuse and an extra conversion runs. Q/DQ on the conv -> Add edge prevents the fusion.",
    "TensorRT Developer Guide 8.x \"Quantize the residual input in skip-connections\"; pytorch-quantization "
    "quant_resnet50 tutorial; tensorflow-quantization add_custom_qdq_cases.md; TensorRT Model Optimizer "
    "remove_partial_input_qdq; TRT-INT8-RULES.md TRT-QDQ-RESIDUAL-ADD"};

class ResidualAddRule final : public LintRule {
public:
    const RuleInfo& info() const override { return kInfo; }

    void check(const LintContext& context, std::vector<Finding>& findings) const override {
        if (!context.explicitQuantization()) return;  // the exporter places these Q/DQ itself
        for (const Node& node : context.graph().nodes()) {
            if (!isOp(node, "Add") || node.inputs.size() != 2 || node.inputs[0] == kNoId || node.inputs[1] == kNoId)
                continue;
            if (auto f = verdict(context, node)) findings.push_back(*f);
        }
    }

private:
    // The INT8 conv whose output reaches `value` through BatchNormalization/Relu, each with a single consumer.
    static const Node* fusableConv(const LintContext& context, ValueId value) {
        while (value != kNoId && context.graph().value(value).consumers.size() == 1) {
            const Node* p = context.producer(value);
            if (p == nullptr || p->inputs.empty()) return nullptr;
            if (isOp(*p, "Conv") || isOp(*p, "ConvTranspose")) return context.int8Planned(p->id) ? p : nullptr;
            if (!isOp(*p, "BatchNormalization") && !isOp(*p, "Relu")) return nullptr;
            value = p->inputs[0];
        }
        return nullptr;
    }

    static bool dequantized(const LintContext& context, ValueId value) {
        const Node* p = context.producer(value);
        return p != nullptr && isOp(*p, "DequantizeLinear");
    }

    // The conv behind a Q/DQ pair on this edge (conv -> Q -> DQ -> Add), if any.
    static const Node* convBehindQdq(const LintContext& context, ValueId value) {
        if (!dequantized(context, value)) return nullptr;
        const ValueId source = context.throughQdq(value);
        return source == value ? nullptr : fusableConv(context, source);
    }

    static std::optional<Finding> verdict(const LintContext& context, const Node& add) {
        const Graph& graph = context.graph();
        const ValueId in[2] = {add.inputs[0], add.inputs[1]};
        const Node* direct[2] = {fusableConv(context, in[0]), fusableConv(context, in[1])};
        const bool dq[2] = {dequantized(context, in[0]), dequantized(context, in[1])};
        for (int i = 0; i < 2; ++i) {
            if (direct[i] == nullptr || dq[1 - i]) continue;
            return context.finding(
                kInfo, add, Severity::Warning,
                lintText("skip input '", graph.value(in[1 - i]).name,
                         "' of this residual Add is not quantized, so the ", "Add fused into INT8 conv '",
                         direct[i]->name, "' outputs float and the next quantize cannot fuse"),
                lintText("insert QuantizeLinear/DequantizeLinear on '", graph.value(in[1 - i]).name,
                         "' (the skip input) only, with the scale its other consumers use"));
        }
        for (int i = 0; i < 2; ++i) {
            const Node* conv = convBehindQdq(context, in[i]);
            if (conv == nullptr || direct[1 - i] != nullptr) continue;
            const Severity severity = dq[1 - i] ? Severity::Info : Severity::Warning;
            return context.finding(kInfo, add, severity,
                                   lintText("Q/DQ sits on the edge from conv '", conv->name, "' to this residual Add",
                                            dq[1 - i] ? "" : " while the skip input is not quantized",
                                            ": TensorRT cannot fuse the Add into the conv"),
                                   "remove the Q/DQ between the conv and the Add and quantize the skip input instead");
        }
        return std::nullopt;
    }
};

}  // namespace

std::unique_ptr<LintRule> makeResidualAddRule() {
    return std::make_unique<ResidualAddRule>();
}

}  // namespace ql::rules
