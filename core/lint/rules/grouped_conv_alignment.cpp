// trt-grouped-conv-int8-alignment: INT8 grouped/depthwise convolutions need channels per group in multiples of 4.
#include "core/lint/lint_context.h"
#include "core/lint/rules/rules.h"

namespace ql::rules {

namespace {

constexpr RuleInfo kInfo{
    "trt-grouped-conv-int8-alignment", Severity::Error, kAllTrtVersions,
    "TensorRT only has INT8 kernels for grouped convolutions whose groups hold a multiple of 4 input channels and a "
    "multiple of 4 output channels. A depthwise convolution (one group per channel) is accepted when its total "
    "channel count is a multiple of 4. Otherwise TensorRT 8.6 fails to build a Q/DQ model (\"Could not find any "
    "implementation for node ...\"), and TensorRT 10.x quietly runs the layer in FP16/FP32 instead of INT8. On "
    "TensorRT 11, which has no strongly typed FP16 kernel for a grouped convolution either (11.2, "
    "trt-strong-fp16-grouped-conv), the layer falls back to FP32, as QuantLens's TensorRT 11 export writes it.",
    "TensorRT NvInfer.h IConvolutionLayer::setNbGroups / IDeconvolutionLayer::setNbGroups (\"the size of the groups "
    "... must be a multiple of 4 for both input and output\"); NVIDIA/TensorRT#4060, #3385"};

struct GroupChannels {
    int64_t in = -1;   // total input channels
    int64_t out = -1;  // total output channels
};

// Conv weights are [C_out, C_in/g, ...]; ConvTranspose weights are [C_in, C_out/g, ...].
GroupChannels channelsOf(const Node& node, const std::vector<int64_t>& w, int64_t groups) {
    if (isOp(node, "Conv")) return {w[1] * groups, w[0]};
    return {w[0], w[1] * groups};
}

class GroupedConvAlignmentRule final : public LintRule {
public:
    const RuleInfo& info() const override { return kInfo; }

    void check(const LintContext& context, std::vector<Finding>& findings) const override {
        for (const Node& node : context.graph().nodes()) {
            if (!(isOp(node, "Conv") || isOp(node, "ConvTranspose")) || node.inputs.size() < 2) continue;
            const int64_t groups = node.intAttribute("group", 1);
            if (groups <= 1 || !context.int8Planned(node.id)) continue;
            const std::vector<int64_t> w = context.dims(node.inputs[1]);
            if (w.size() < 3 || w[0] < 0 || w[1] < 0) continue;
            const GroupChannels c = channelsOf(node, w, groups);
            if (auto problem = misalignment(c, groups)) findings.push_back(makeFinding(context, node, *problem));
        }
    }

private:
    static std::optional<std::string> misalignment(const GroupChannels& c, int64_t groups) {
        if (groups == c.in) {  // depthwise
            if (c.in % 4 == 0 && c.out % 4 == 0) return std::nullopt;
            return lintText("depthwise convolution (group=", groups, ") with ", c.in, " input and ", c.out,
                            " output channels: the channel count is not a multiple of 4");
        }
        const int64_t inPerGroup = c.in / groups;
        const int64_t outPerGroup = c.out / groups;
        if (inPerGroup % 4 == 0 && outPerGroup % 4 == 0) return std::nullopt;
        return lintText("grouped convolution (group=", groups, ") with ", inPerGroup, " input and ", outPerGroup,
                        " output channels per group: not both multiples of 4");
    }

    static Finding makeFinding(const LintContext& context, const Node& node, const std::string& problem) {
        if (context.version() == TrtVersion::Trt86 && context.explicitQuantization())
            return context.finding(kInfo, node, Severity::Error,
                                   problem + "; TensorRT 8.6 has no INT8 kernel and the build fails",
                                   "remove the Q/DQ on this convolution's input and weight so it runs in FP16, or "
                                   "pad the channels to a multiple of 4");
        // TensorRT 11.2 has no strongly typed FP16 kernel for a grouped convolution either: there, FP32 builds.
        if (lacksStrongFp16Kernel(context.version(), node))
            return context.finding(kInfo, node, Severity::Warning,
                                   problem +
                                       "; TensorRT has no INT8 kernel, and 11.2 no FP16 kernel for a grouped "
                                       "convolution: this layer runs FP32",
                                   "set this layer to FP32 in the plan (it gains nothing from INT8, and FP16 fails "
                                   "the build on 11.2), or pad the channels to a multiple of 4",
                                   true);
        return context.finding(kInfo, node, Severity::Warning,
                               problem + "; TensorRT has no INT8 kernel and runs this layer in FP16/FP32",
                               "set this layer to FP16 in the plan (it gains nothing from INT8), or pad the channels "
                               "to a multiple of 4",
                               true);
    }
};

}  // namespace

std::unique_ptr<LintRule> makeGroupedConvAlignmentRule() {
    return std::make_unique<GroupedConvAlignmentRule>();
}

}  // namespace ql::rules
