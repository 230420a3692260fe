// trt-qdq-splits-fusion: a Q/DQ pair inside Conv -> Sigmoid -> Mul (SiLU) or between a ConvTranspose and its
// activation keeps TensorRT from running the pair as one kernel.
#include "core/lint/lint_context.h"
#include "core/lint/rules/rules.h"

namespace ql::rules {

namespace {

constexpr RuleInfo kInfo{
    "trt-qdq-splits-fusion", Severity::Warning, kAllTrtVersions,
    "TensorRT runs a convolution and the pointwise activation after it as one kernel: Conv (+ BatchNormalization) -> "
    "Sigmoid -> Mul (SiLU / Swish, every YOLOv5/v8 block) becomes \"Conv + PWN(PWN(Sigmoid), Mul)\", and a "
    "ConvTranspose merges its activation the same way. A QuantizeLinear/DequantizeLinear pair inside that chain (ONNX "
    "Runtime's quantizer puts one after every op) splits it: the conv writes its output to memory, a separate "
    "pointwise kernel reads it back, and the SiLU's input is rounded to INT8 before the Sigmoid. NVIDIA's Model "
    "Optimizer treats Conv -> Sigmoid -> Mul as one partition with Q/DQ only at its input and output.",
    "NVIDIA Model Optimizer graph_utils.get_fusible_backbone and partitioning (Conv->BN->Sigmoid->Mul is one "
    "partition); NVIDIA/TensorRT#4364, #4365, #4412 and Model-Optimizer#207 (ConvTranspose -> activation not merged "
    "with explicit Q/DQ; explicit engines slower than implicit INT8)"};

constexpr const char* kFix =
    "remove this QuantizeLinear/DequantizeLinear pair: quantize the input of the conv and the output of the "
    "activation only";

bool isConvLike(const Node& node) {
    return isOp(node, "Conv") || isOp(node, "ConvTranspose");
}

// The conv a value comes from, through BatchNormalization and Q/DQ pairs; `crossed` says whether a pair was crossed.
const Node* convBehind(const LintContext& context, ValueId value, bool& crossed) {
    for (int depth = 0; depth < 4; ++depth) {
        bool pair = false;
        const Node* p = context.producerThroughQdq(value, &pair);
        crossed = crossed || pair;
        if (p == nullptr) return nullptr;
        if (isConvLike(*p)) return p;
        if (!isOp(*p, "BatchNormalization") || p->inputs.empty()) return nullptr;
        value = p->inputs[0];
    }
    return nullptr;
}

// The tensor a value carries once Q/DQ pairs are looked through.
ValueId source(const LintContext& context, ValueId value) {
    for (ValueId through = context.throughQdq(value); through != value; through = context.throughQdq(value))
        value = through;
    return value;
}

bool isActivation(const Node& node) {
    return isOp(node, "Relu") || isOp(node, "LeakyRelu") || isOp(node, "Clip") || isOp(node, "Sigmoid") ||
           isOp(node, "Tanh") || isOp(node, "HardSigmoid") || isOp(node, "HardSwish") || isOp(node, "Elu") ||
           isOp(node, "Selu") || isOp(node, "PRelu");
}

class QdqSplitsFusionRule final : public LintRule {
public:
    const RuleInfo& info() const override { return kInfo; }

    void check(const LintContext& context, std::vector<Finding>& findings) const override {
        for (const Node& node : context.graph().nodes()) {
            if (isOp(node, "Mul") && node.inputs.size() == 2)
                checkSilu(context, node, findings);
            else if (isActivation(node) && !node.inputs.empty() && !isSiluSigmoid(context, node))
                checkConvTranspose(context, node, findings);
        }
    }

private:
    // Mul(x, Sigmoid(x)) with x from a conv; reported when a Q/DQ pair sits on any of its three edges.
    static void checkSilu(const LintContext& context, const Node& mul, std::vector<Finding>& findings) {
        for (size_t s = 0; s < 2; ++s) {
            bool crossed = false;
            const Node* sigmoid = context.producerThroughQdq(mul.inputs[s], &crossed);
            if (sigmoid == nullptr || !isOp(*sigmoid, "Sigmoid") || sigmoid->inputs.empty()) continue;
            const ValueId x = source(context, mul.inputs[1 - s]);
            if (source(context, sigmoid->inputs[0]) != x) continue;
            crossed = crossed || x != mul.inputs[1 - s] || x != sigmoid->inputs[0];
            bool behind = false;
            const Node* conv = convBehind(context, x, behind);
            if (conv == nullptr || !crossed) return;
            findings.push_back(context.finding(
                kInfo, mul, Severity::Warning,
                lintText("Q/DQ inside the SiLU of ", conv->opType, " '", conv->name, "' (Sigmoid '", sigmoid->name,
                         "' -> Mul): TensorRT cannot fuse Conv + SiLU into one kernel, the SiLU runs separately "
                         "on a rounded input"),
                kFix));
            return;
        }
    }

    // The Sigmoid of a SiLU (read by a Mul, maybe through a Q/DQ pair) is checkSilu's business.
    static bool isSiluSigmoid(const LintContext& context, const Node& node) {
        if (!isOp(node, "Sigmoid") || node.outputs.empty() || node.outputs[0] == kNoId) return false;
        const Graph& graph = context.graph();
        for (NodeId c : graph.value(node.outputs[0]).consumers) {
            const Node& consumer = graph.node(c);
            if (isOp(consumer, "Mul")) return true;
            if (!isOp(consumer, "QuantizeLinear") || consumer.outputs.empty() || consumer.outputs[0] == kNoId) continue;
            for (NodeId dq : graph.value(consumer.outputs[0]).consumers) {
                const Node& dequantize = graph.node(dq);
                if (!isOp(dequantize, "DequantizeLinear") || dequantize.outputs.empty()) continue;
                for (NodeId m : graph.value(dequantize.outputs[0]).consumers)
                    if (isOp(graph.node(m), "Mul")) return true;
            }
        }
        return false;
    }

    static void checkConvTranspose(const LintContext& context, const Node& activation, std::vector<Finding>& findings) {
        bool crossed = false;
        const Node* p = context.producerThroughQdq(activation.inputs[0], &crossed);
        if (p == nullptr || !isOp(*p, "ConvTranspose") || !crossed) return;
        findings.push_back(context.finding(
            kInfo, activation, Severity::Warning,
            lintText("Q/DQ between ConvTranspose '", p->name, "' and this ", activation.opType,
                     ": TensorRT does not merge the activation into the deconvolution, which writes its output "
                     "and runs the activation as another kernel"),
            kFix));
    }
};

}  // namespace

std::unique_ptr<LintRule> makeQdqSplitsFusionRule() {
    return std::make_unique<QdqSplitsFusionRule>();
}

}  // namespace ql::rules
