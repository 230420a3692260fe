// trt-qdq-blocks-bn-fusion: Q/DQ between Conv and BatchNormalization (or between BN and its ReLU) stops TensorRT
// from fusing Conv + BN + ReLU.
#include "core/lint/lint_context.h"
#include "core/lint/rules/rules.h"

namespace ql::rules {

namespace {

constexpr RuleInfo kInfo{
    "trt-qdq-blocks-bn-fusion", Severity::Warning, kAllTrtVersions,
    "TensorRT folds a BatchNormalization into the convolution before it and fuses the ReLU after it, keeping the "
    "arithmetic of the unfused network. A QuantizeLinear/DequantizeLinear pair between the Conv and the "
    "BatchNormalization (typical of a Sequential(Conv, BN) block quantized as a whole) or between the "
    "BatchNormalization and its ReLU blocks that fusion: an extra quantize/dequantize runs and the pre-BN values are "
    "rounded, which costs accuracy and speed.",
    "TensorRT Developer Guide 8.x \"Do not simulate batch-normalization and ReLU fusions in the training framework\"; "
    "TensorRT Model Optimizer graph_utils.get_fusible_backbone"};

constexpr const char* kFix =
    "remove this QuantizeLinear/DequantizeLinear pair (quantize the conv's input and weight only), or fold the "
    "BatchNormalization into the conv before quantizing";

class QdqBlocksBnFusionRule final : public LintRule {
public:
    const RuleInfo& info() const override { return kInfo; }

    void check(const LintContext& context, std::vector<Finding>& findings) const override {
        for (const Node& node : context.graph().nodes()) {
            if (node.inputs.empty() || node.inputs[0] == kNoId) continue;
            const bool bn = isOp(node, "BatchNormalization");
            if (!bn && !isOp(node, "Relu")) continue;
            const Node* before = context.producerBehindQdq(node.inputs[0]);
            if (before == nullptr) continue;
            if (bn && (isOp(*before, "Conv") || isOp(*before, "ConvTranspose")))
                findings.push_back(context.finding(kInfo, node, Severity::Warning,
                                                   lintText("Q/DQ between ", before->opType, " '", before->name,
                                                            "' and this BatchNormalization blocks the Conv+BN fusion"),
                                                   kFix));
            else if (!bn && isOp(*before, "BatchNormalization") && followsConv(context, *before))
                findings.push_back(context.finding(kInfo, node, Severity::Warning,
                                                   lintText("Q/DQ between BatchNormalization '", before->name,
                                                            "' and this Relu blocks the Conv+BN+ReLU fusion"),
                                                   kFix));
        }
    }

private:
    // The BatchNormalization folds into a conv (maybe behind its own Q/DQ pair, reported on the BN): without one
    // there is no Conv+BN+ReLU fusion to block.
    static bool followsConv(const LintContext& context, const Node& bn) {
        const Node* p = bn.inputs.empty() ? nullptr : context.producerThroughQdq(bn.inputs[0]);
        return p != nullptr && (isOp(*p, "Conv") || isOp(*p, "ConvTranspose"));
    }
};

}  // namespace

std::unique_ptr<LintRule> makeQdqBlocksBnFusionRule() {
    return std::make_unique<QdqBlocksBnFusionRule>();
}

}  // namespace ql::rules
