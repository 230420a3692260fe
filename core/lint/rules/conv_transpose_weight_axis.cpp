// trt-convtranspose-weight-axis: per-channel ConvTranspose weight scales on the axis the target expects.
#include "core/lint/lint_context.h"
#include "core/lint/rules/rules.h"
#include "core/lint/rules/weight_axis.h"

namespace ql::rules {

namespace {

constexpr RuleInfo kInfo{
    "trt-convtranspose-weight-axis", Severity::Error, kAllTrtVersions,
    "ConvTranspose weights are stored as [input channels, output channels / group, kH, kW], the opposite of Conv. "
    "TensorRT 8.x kernels expect per-channel weight scales along axis 0 (input channels), while NVIDIA's current "
    "tools (pytorch-quantization 10.2+, TensorRT Model Optimizer) write axis 1 (output channels). Scales on the axis "
    "the target does not expect either fail the build with a weight/channel count mismatch or give wrong numbers "
    "without any error. A per-tensor weight scale works on every version.",
    "NVIDIA/TensorRT#2380, #1694, #1519; pytorch-quantization tensor_quant.py history (axis 1 -> 0 in 8.4 -> 1 in "
    "10.2); TensorRT Model Optimizer ort_utils.py (\"ConvTranspose\": 1); onnx-tensorrt ConvTranspose importer "
    "(\"Kernel weights have layout [C, M/group, k1, k2, (k3)]\"); pytorch/TensorRT#2723"};

constexpr const char* kFix =
    "quantize the ConvTranspose weight per tensor (one scale), or per channel on the axis of your TensorRT version "
    "(axis 0 for 8.x, axis 1 for 10.x) and write the axis attribute";

class ConvTransposeWeightAxisRule final : public LintRule {
public:
    const RuleInfo& info() const override { return kInfo; }

    void check(const LintContext& context, std::vector<Finding>& findings) const override {
        for (const Node& node : context.graph().nodes()) {
            if (!isOp(node, "ConvTranspose")) continue;
            const QdqLink* link = context.inputLink(node.id, 1);
            if (link == nullptr || !link->paramsKnown || !link->params.perChannel()) continue;
            const WeightAxis axis = trtWeightAxis(context, *link);
            if (axis.dims.size() < 2 || axis.axis < 0 || axis.dims[0] < 0 || axis.dims[1] < 0) continue;
            if (auto f = verdict(context, node, axis, node.intAttribute("group", 1))) findings.push_back(*f);
        }
    }

private:
    static std::optional<Finding> verdict(const LintContext& context, const Node& node, const WeightAxis& a,
                                          int64_t groups) {
        const int64_t cIn = a.dims[0];
        const int64_t cOutPerGroup = a.dims[1];
        const std::string what = lintText(a.scaleCount, " weight scales on axis ", a.axis, " of weight ",
                                          joinInts(a.dims), " (C_in=", cIn, ", C_out/group=", cOutPerGroup, ")");
        if (a.scaleCount != cIn && a.scaleCount != cOutPerGroup)
            return context.finding(kInfo, node, Severity::Error,
                                   what + ": the count matches neither channel axis; the build fails", kFix);
        if (a.axis > 1 || a.dims[static_cast<size_t>(a.axis)] != a.scaleCount)
            return context.finding(kInfo, node, Severity::Error,
                                   what + ": the count does not match the size of that axis; the build fails", kFix);
        if (groups > 1)
            return context.finding(
                kInfo, node, Severity::Warning,
                what + lintText(" with group=", groups, ": per-channel scales of grouped ConvTranspose are ambiguous"),
                kFix);
        if (context.version() == TrtVersion::Trt86) {
            if (a.axis == 0) return std::nullopt;
            if (cIn != cOutPerGroup)
                return context.finding(kInfo, node, Severity::Error,
                                       what +
                                           ": TensorRT 8.x expects axis 0 (C_in) and fails the build with a "
                                           "channel count mismatch",
                                       kFix);
            return context.finding(kInfo, node, Severity::Warning,
                                   what +
                                       ": TensorRT 8.x expects axis 0 (C_in); the counts agree, so it builds but "
                                       "applies each scale to the wrong channel",
                                   kFix);
        }
        if (a.axis == 1) return std::nullopt;
        return context.finding(kInfo, node, Severity::Warning,
                               what +
                                   ": for TensorRT 10.x NVIDIA's tools quantize ConvTranspose weights on axis 1 "
                                   "(C_out); axis 0 is the 8.x convention",
                               kFix);
    }
};

}  // namespace

std::unique_ptr<LintRule> makeConvTransposeWeightAxisRule() {
    return std::make_unique<ConvTransposeWeightAxisRule>();
}

}  // namespace ql::rules
