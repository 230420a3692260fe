// trt-softmax-norm-int8: Softmax and normalization layers have no INT8 implementation in TensorRT.
#include "core/lint/lint_context.h"
#include "core/lint/rules/rules.h"

namespace ql::rules {

namespace {

constexpr RuleInfo kInfo{
    "trt-softmax-norm-int8", Severity::Info, kAllTrtVersions,
    "TensorRT computes Softmax, LayerNormalization and GroupNormalization in FP32 or FP16 only: it has no INT8 "
    "implementation for them and they are sensitive to rounding. Planning them INT8, or putting a "
    "DequantizeLinear right before them, gains nothing; the Q/DQ only become format conversions. "
    "(InstanceNormalization is covered by trt-instancenorm.)",
    "TensorRT NvInfer.h INormalizationLayer::setComputePrecision (FP32/FP16 only); onnx-tensorrt 8.6 operators.md "
    "(Softmax: FP32, FP16); NVIDIA/TensorRT#4084; open-mmlab/mmdeploy#2073"};

bool isSoftmaxOrNorm(const Node& node) {
    return isOp(node, "Softmax") || isOp(node, "LayerNormalization") || isOp(node, "GroupNormalization");
}

class SoftmaxNormInt8Rule final : public LintRule {
public:
    const RuleInfo& info() const override { return kInfo; }

    void check(const LintContext& context, std::vector<Finding>& findings) const override {
        for (const Node& node : context.graph().nodes()) {
            if (!isSoftmaxOrNorm(node) || !context.int8Planned(node.id)) continue;
            findings.push_back(context.finding(
                kInfo, node, Severity::Info,
                lintText(node.opType, " is planned INT8 but TensorRT runs it in FP16/FP32"),
                "keep this layer in FP16: remove the Q/DQ that feed it or set it to FP16 in the plan", true));
        }
    }
};

}  // namespace

std::unique_ptr<LintRule> makeSoftmaxNormInt8Rule() {
    return std::make_unique<SoftmaxNormInt8Rule>();
}

}  // namespace ql::rules
