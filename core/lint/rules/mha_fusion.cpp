// trt-mha-fusion: attention TensorRT cannot fuse into one MHA kernel, or INT8 attention missing the Q/DQ the fused
// kernel needs.
#include <algorithm>

#include "core/lint/lint_context.h"
#include "core/lint/rules/rules.h"
#include "core/model/attention_pattern.h"
#include "core/model/op_roles.h"

namespace ql::rules {

namespace {

constexpr RuleInfo kInfo{
    "trt-mha-fusion", Severity::Warning, kAllTrtVersions,
    "TensorRT fuses scaled dot-product attention (MatMul Q x K^T, scale, mask, Softmax, MatMul with V) into one "
    "multi-head-attention kernel when the graph has the form it expects: both batched products are MatMuls (not "
    "Einsum), the scale multiplies Q or K before the first MatMul (a Div of the scores is not recognized), a mask is "
    "added to the scores or selects them (Where; a Mul of the scores by a value computed from constants or from tensor "
    "shapes, as PyTorch writes 1/sqrt(H), is a scale, not a mask), and nothing but a cast or Q/DQ sits between the "
    "Softmax and the "
    "second MatMul. The INT8 kernel is chosen only when QuantizeLinear/DequantizeLinear pairs sit before the first "
    "batched MatMul, after the Softmax and after the second one, and NVIDIA asks for Q/DQ before the residual Add "
    "too. Otherwise attention runs as separate GEMM and Softmax kernels, with the scores written to memory.",
    "TensorRT documentation \"Fused Attention\" and best practices \"Multi-Head Attention Fusion\" (INT8 fused MHA "
    "needs Q/DQ before BMM1, after the Softmax and after BMM2); NVIDIA/TensorRT#3243 (\"add Q/DQ ops before the two "
    "batch gemms in the MHA and also add Q/DQ ops before the ResidualAdd\"), #2981, #4537"};

const char* kFix = "write the attention as MatMul(Q * scale, K^T) -> Add(mask) -> Softmax -> MatMul(P, V)";

std::string inputName(const Graph& graph, ValueId value) {
    return value == kNoId ? std::string("?") : graph.value(value).name;
}

// Why the graph between BMM1 and BMM2 has a form TensorRT does not fuse; empty when it has the expected form.
std::string formProblem(const Graph& graph, const AttentionPattern& p) {
    for (NodeId id : {p.scores, p.context})
        if (graph.node(id).opType == "Einsum")
            return lintText("the batched product '", graph.node(id).name, "' is an Einsum");
    for (NodeId id : p.beforeSoftmax) {
        const Node& n = graph.node(id);
        if (n.opType == "Div") return lintText("the scores are scaled by a Div ('", n.name, "') after the MatMul");
        if (n.opType == "Sub") return lintText("'", n.name, "' subtracts from the scores before the Softmax");
        if (n.opType == "Mul" && n.inputs.size() == 2 && isComputedValue(graph, n.inputs[0]) &&
            isComputedValue(graph, n.inputs[1]))
            return lintText("the mask is multiplied into the scores ('", n.name,
                            "'); TensorRT takes an added or a boolean (Where) mask");
    }
    for (NodeId id : p.afterSoftmax) {
        const Node& n = graph.node(id);
        if (n.opType != "Cast" && n.opType != "QuantizeLinear" && n.opType != "DequantizeLinear" &&
            n.opType != "Identity" && n.opType != "Dropout")
            return lintText("'", n.name, "' (", n.opType, ") sits between the Softmax and the second MatMul");
    }
    return {};
}

// The residual Add after the attention: BMM2 -> data movement -> output projection -> (bias Add) -> Add.
const Node* residualAddAfter(const Graph& graph, const Node& context) {
    const Node* n = &context;
    bool projected = false;
    for (int depth = 0; depth < 8; ++depth) {
        if (n->outputs.empty() || n->outputs[0] == kNoId) return nullptr;
        const auto& consumers = graph.value(n->outputs[0]).consumers;
        if (consumers.size() != 1) return nullptr;
        const Node& next = graph.node(consumers.front());
        if (isOp(next, "DequantizeLinear") || isOp(next, "QuantizeLinear") || movesData(next)) {
            n = &next;
            continue;
        }
        if (!projected && (isOp(next, "MatMul") || isOp(next, "Gemm"))) {
            projected = true;
            n = &next;
            continue;
        }
        if (!projected || !isOp(next, "Add") || next.inputs.size() != 2) return nullptr;
        if (isComputedValue(graph, next.inputs[0]) && isComputedValue(graph, next.inputs[1])) return &next;
        n = &next;  // the projection's bias
    }
    return nullptr;
}

// The inputs INT8 fused MHA wants dequantized and are not, e.g. "the first MatMul's input 'k'".
std::vector<std::string> missingQdq(const LintContext& context, const AttentionPattern& p) {
    const Graph& graph = context.graph();
    std::vector<std::string> missing;
    const Node& scores = graph.node(p.scores);
    const Node& weighted = graph.node(p.context);
    for (size_t i = 0; i < 2; ++i)
        if (!context.dequantized(scores.inputs[i]))
            missing.push_back(lintText("the first MatMul's input '", inputName(graph, scores.inputs[i]), "'"));
    if (!context.dequantized(weighted.inputs[0]))
        missing.push_back("the Softmax output (the second MatMul's input " +
                          lintText("'", inputName(graph, weighted.inputs[0]), "')"));
    if (!context.dequantized(weighted.inputs[1]))
        missing.push_back(lintText("the second MatMul's input '", inputName(graph, weighted.inputs[1]), "'"));
    if (const Node* add = residualAddAfter(graph, weighted))
        if (!context.dequantized(add->inputs[0]) && !context.dequantized(add->inputs[1]))
            missing.push_back(lintText("the inputs of the residual Add '", add->name, "'"));
    return missing;
}

std::string joined(const std::vector<std::string>& parts) {
    std::string out;
    for (size_t i = 0; i < parts.size(); ++i) out += (i == 0 ? "" : i + 1 == parts.size() ? " and " : ", ") + parts[i];
    return out;
}

class MhaFusionRule final : public LintRule {
public:
    const RuleInfo& info() const override { return kInfo; }

    void check(const LintContext& context, std::vector<Finding>& findings) const override {
        const Graph& graph = context.graph();
        for (const AttentionPattern& p : findAttentionPatterns(graph)) {
            if (p.context == kNoId) continue;
            const Node& scores = graph.node(p.scores);
            if (const std::string problem = formProblem(graph, p); !problem.empty()) {
                findings.push_back(
                    context.finding(kInfo, scores, Severity::Warning,
                                    lintText("attention '", scores.name, "' -> '", graph.node(p.context).name,
                                             "' will not fuse into TensorRT's MHA kernel: ", problem),
                                    kFix));
                continue;
            }
            checkQuantization(context, p, findings);
        }
    }

private:
    static void checkQuantization(const LintContext& context, const AttentionPattern& p,
                                  std::vector<Finding>& findings) {
        const Graph& graph = context.graph();
        const Node& scores = graph.node(p.scores);
        const Node& weighted = graph.node(p.context);
        if (context.explicitQuantization()) {
            const bool any = context.dequantized(scores.inputs[0]) || context.dequantized(scores.inputs[1]) ||
                             context.dequantized(weighted.inputs[0]) || context.dequantized(weighted.inputs[1]);
            const std::vector<std::string> missing = missingQdq(context, p);
            if (!any || missing.empty()) return;
            findings.push_back(context.finding(
                kInfo, scores, Severity::Warning,
                lintText("attention '", scores.name, "' is partly quantized: no Q/DQ on ", joined(missing),
                         "; TensorRT picks its INT8 MHA kernel only with all of them, so the attention runs "
                         "unfused with INT8/float conversions between its parts"),
                "quantize both inputs of both batched MatMuls and the skip input of the residual Add, or none "
                "(FP16 attention)"));
            return;
        }
        const bool first = context.int8Planned(p.scores), second = context.int8Planned(p.context);
        if (first == second) return;
        const Node& int8 = first ? scores : weighted;
        const Node& other = first ? weighted : scores;
        findings.push_back(context.finding(
            kInfo, other, Severity::Warning,
            lintText("the plan runs '", int8.name, "' in INT8 but '", other.name,
                     "' of the same attention in higher precision: TensorRT's INT8 MHA kernel needs both batched "
                     "MatMuls in INT8, so the attention runs unfused"),
            lintText("give '", other.name, "' the precision of '", int8.name, "'")));
    }
};

}  // namespace

std::unique_ptr<LintRule> makeMhaFusionRule() {
    return std::make_unique<MhaFusionRule>();
}

}  // namespace ql::rules
