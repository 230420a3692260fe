// trt-residual-add-unquantized-input: a residual Add after an INT8 conv fuses into it only when its skip input is
// quantized, and Q/DQ belong on the skip input, not on the conv -> Add edge. On a plan: a residual Add the plan runs
// float after an INT8 conv and before an INT8 layer, which the export writes as exactly that.
#include "core/lint/lint_context.h"
#include "core/lint/rules/rules.h"

namespace ql::rules {

namespace {

constexpr RuleInfo kInfo{
    "trt-residual-add-unquantized-input", Severity::Warning, kAllTrtVersions,
    "TensorRT fuses a residual Add into the convolution that produces one of its inputs, and the fused layer outputs "
    "INT8 only when the other (skip) input is INT8 too. So NVIDIA's tools put a QuantizeLinear/DequantizeLinear pair "
    "on the skip input and none on the conv -> Add edge. An unquantized skip input keeps the fused output in float: "
    "the next quantize cannot fuse and an extra conversion runs. Q/DQ on the conv -> Add edge prevents the fusion. "
    "It fires only where a quantize follows the Add (directly, after its fused activation, or after a MaxPool, above "
    "which TensorRT moves the quantize). On a plan, it fires where the plan runs a residual Add in float between an "
    "INT8 convolution and an INT8 layer: the export writes exactly that.",
    "TensorRT Developer Guide 8.x \"Quantize the residual input in skip-connections\"; pytorch-quantization "
    "quant_resnet50 tutorial; tensorflow-quantization add_custom_qdq_cases.md; TensorRT Model Optimizer "
    "remove_partial_input_qdq"};

class ResidualAddRule final : public LintRule {
public:
    const RuleInfo& info() const override { return kInfo; }

    void check(const LintContext& context, std::vector<Finding>& findings) const override {
        for (const Node& node : context.graph().nodes()) {
            if (!isOp(node, "Add") || node.inputs.size() != 2 || node.inputs[0] == kNoId || node.inputs[1] == kNoId)
                continue;
            // On a plan the export places the skip's Q/DQ itself when the Add runs INT8; one that runs float is what
            // the file will show.
            if (auto f = context.explicitQuantization() ? verdict(context, node) : planVerdict(context, node))
                findings.push_back(*f);
        }
    }

private:
    // The INT8 conv whose output reaches an Add input, and whether a Q/DQ pair sits on that conv -> Add edge.
    struct ConvTrail {
        const Node* conv = nullptr;
        bool qdqOnEdge = false;
    };

    // Follows BatchNormalization/Relu (each with a single consumer) back to an INT8 conv. A QuantizeLinear ->
    // DequantizeLinear pair on the way is the quantization of that edge (pytorch-quantization puts one after the
    // unfused BN, ONNX Runtime after every op), not a wall; a lone DequantizeLinear is a weight: no conv.
    static ConvTrail fusableConv(const LintContext& context, ValueId value) {
        ConvTrail trail;
        while (value != kNoId && context.graph().value(value).consumers.size() == 1) {
            const Node* p = context.producer(value);
            if (p == nullptr || p->inputs.empty()) return {};
            if (isOp(*p, "DequantizeLinear")) {
                const Node* q = context.pairedQuantize(*p);
                if (q == nullptr || context.graph().value(p->inputs[0]).consumers.size() != 1) return {};
                trail.qdqOnEdge = true;
                value = q->inputs[0];
                continue;
            }
            if (isOp(*p, "Conv") || isOp(*p, "ConvTranspose")) {
                if (!context.int8Planned(p->id)) return {};
                trail.conv = p;
                return trail;
            }
            if (!isOp(*p, "BatchNormalization") && !isOp(*p, "Relu")) return {};
            value = p->inputs[0];
        }
        return {};
    }

    // Which input is the conv branch: one reached without Q/DQ first (TensorRT fuses the Add into that conv), a
    // quantized skip input before an unquantized one. -1 when neither input comes from an INT8 conv.
    static int convBranch(const ConvTrail (&trail)[2], const bool (&dq)[2]) {
        int best = -1;
        int bestRank = 0;
        for (int i = 0; i < 2; ++i) {
            if (trail[i].conv == nullptr) continue;
            const int rank = (trail[i].qdqOnEdge ? 0 : 2) + (dq[1 - i] ? 1 : 0) + 1;
            if (rank > bestRank) {
                best = i;
                bestRank = rank;
            }
        }
        return best;
    }

    // The node after `add` whose input is quantized (`quantizes`): a reader of its output, or of what follows it
    // without a layer of its own in between: the activation TensorRT fuses after it, a MaxPool (TensorRT moves a
    // quantize above it). Null when there is none: nothing downstream wants INT8, and the float output costs nothing.
    // `passes`: whether a Relu, Clip or MaxPool runs with the Add (not a layer of its own at another precision).
    template <typename Quantizes, typename Passes>
    static const Node* quantizingReader(const LintContext& context, ValueId value, Quantizes quantizes, Passes passes,
                                        int hops = 2) {
        const Graph& graph = context.graph();
        if (value == kNoId) return nullptr;
        for (NodeId consumer : graph.value(value).consumers) {
            const Node& reader = graph.node(consumer);
            if (quantizes(reader)) return &reader;
            const bool through = isOp(reader, "Relu") || isOp(reader, "Clip") || isOp(reader, "MaxPool");
            if (through && passes(reader) && hops > 0 && !reader.outputs.empty())
                if (const Node* next = quantizingReader(context, reader.outputs[0], quantizes, passes, hops - 1))
                    return next;
        }
        return nullptr;
    }

    // A residual Add the plan runs in float between an INT8 conv (its branch) and an INT8 layer that reads it: the
    // export quantizes neither its skip input nor the conv's output, so the file has what `verdict` warns about.
    static std::optional<Finding> planVerdict(const LintContext& context, const Node& add) {
        const Graph& graph = context.graph();
        if (context.int8Effective(add.id) || add.outputs.empty() || add.outputs[0] == kNoId) return std::nullopt;
        const Precision precision = context.plan().effective(add.id);
        const Node* reader = quantizingReader(
            context, add.outputs[0], [&](const Node& node) { return context.int8Effective(node.id); },
            [&](const Node& node) { return context.plan().effective(node.id) == precision; });
        if (reader == nullptr) return std::nullopt;
        for (int i = 0; i < 2; ++i) {
            const ConvTrail trail = fusableConv(context, add.inputs[i]);
            if (trail.conv == nullptr || !context.int8Effective(trail.conv->id)) continue;
            const std::string skip = graph.value(add.inputs[1 - i]).name;
            return context.finding(
                kInfo, add, Severity::Warning,
                lintText("this residual Add runs ", upperPrecisionName(precision), " between INT8 conv '",
                         trail.conv->name, "' and INT8 layer '", reader->name, "': its skip input '", skip,
                         "' is not quantized, so the Add fused into the conv outputs ",
                         "float and the quantize before '", reader->name, "' cannot fuse (an extra conversion runs)"),
                lintText("plan this Add INT8: the export then quantizes its skip input '", skip,
                         "' and the fused layer writes INT8; keep it float only if its accuracy needs it"));
        }
        return std::nullopt;
    }

    static std::optional<Finding> verdict(const LintContext& context, const Node& add) {
        const Graph& graph = context.graph();
        const ValueId in[2] = {add.inputs[0], add.inputs[1]};
        const ConvTrail trail[2] = {fusableConv(context, in[0]), fusableConv(context, in[1])};
        const bool dq[2] = {context.dequantized(in[0]), context.dequantized(in[1])};
        const int i = convBranch(trail, dq);
        if (i < 0) return std::nullopt;
        const Node& conv = *trail[i].conv;
        const std::string skip = graph.value(in[1 - i]).name;
        const bool quantizedAfter =
            !add.outputs.empty() &&
            quantizingReader(
                context, add.outputs[0], [](const Node& node) { return isOp(node, "QuantizeLinear"); },
                [](const Node&) { return true; });
        if (!dq[1 - i] && quantizedAfter)
            return context.finding(
                kInfo, add, Severity::Warning,
                lintText("skip input '", skip, "' of this residual Add is not quantized, so the ",
                         "Add fused into INT8 conv '", conv.name, "' outputs float and the next quantize cannot fuse",
                         trail[i].qdqOnEdge ? "; the Q/DQ on the edge from the conv to the Add prevents the fusion too"
                                            : ""),
                lintText("insert QuantizeLinear/DequantizeLinear on '", skip,
                         "' (the skip input) only, with the scale its other consumers use",
                         trail[i].qdqOnEdge ? ", and remove the Q/DQ between the conv and the Add" : ""));
        if (!trail[i].qdqOnEdge) return std::nullopt;  // the recommended placement
        return context.finding(kInfo, add, Severity::Info,
                               lintText("Q/DQ sits on the edge from conv '", conv.name,
                                        "' to this residual Add: TensorRT cannot fuse the Add into the conv"),
                               "remove the Q/DQ between the conv and the Add and keep the one on the skip input");
    }
};

}  // namespace

std::unique_ptr<LintRule> makeResidualAddRule() {
    return std::make_unique<ResidualAddRule>();
}

}  // namespace ql::rules
