// trt-instancenorm: how TensorRT implements InstanceNormalization, and that it has no INT8 path.
#include "core/lint/lint_context.h"
#include "core/lint/rules/rules.h"

namespace ql::rules {

namespace {

constexpr RuleInfo kInfo{
    "trt-instancenorm", Severity::Warning, kAllTrtVersions,
    "TensorRT runs InstanceNormalization in FP32 or FP16 only, never INT8: Q/DQ around it become plain format "
    "conversions and the layer falls back to float. TensorRT 8.6 uses a plugin by default, which was reported to "
    "crash INT8 builds with cuDNN errors and cannot be used for version-compatible engines; the parser flag "
    "kNATIVE_INSTANCENORM (trtexec --ni) selects the native layer. TensorRT 10.x uses the native layer by default.",
    "onnx-tensorrt README (8.6-GA and 10.1-GA, kNATIVE_INSTANCENORM); instanceNormalizationPlugin.cu "
    "supportsFormatCombination; NvInfer.h INormalizationLayer::setComputePrecision; NVIDIA/TensorRT#1611, #4239"};

class InstanceNormRule final : public LintRule {
public:
    const RuleInfo& info() const override { return kInfo; }

    void check(const LintContext& context, std::vector<Finding>& findings) const override {
        for (const Node& node : context.graph().nodes()) {
            if (!isOp(node, "InstanceNormalization")) continue;
            if (context.int8Planned(node.id))
                findings.push_back(context.finding(
                    kInfo, node, Severity::Warning,
                    "InstanceNormalization is planned INT8, but TensorRT has no INT8 implementation for it: it runs "
                    "in FP16/FP32",
                    "keep this layer in FP16 (remove the Q/DQ that feed it)", true));
            else if (context.version() == TrtVersion::Trt86)
                findings.push_back(context.finding(
                    kInfo, node, Severity::Warning,
                    "TensorRT 8.6 imports InstanceNormalization as a plugin by default (reported to fail INT8 builds "
                    "with cuDNN errors)",
                    "build with the native implementation: trtexec --ni, or set the parser flag kNATIVE_INSTANCENORM"));
            else
                findings.push_back(
                    context.finding(kInfo, node, Severity::Info,
                                    "TensorRT 10.x runs InstanceNormalization natively in FP16/FP32 (no INT8)",
                                    "nothing to do; trtexec --pi selects the plugin if you need it"));
        }
    }
};

}  // namespace

std::unique_ptr<LintRule> makeInstanceNormRule() {
    return std::make_unique<InstanceNormRule>();
}

}  // namespace ql::rules
