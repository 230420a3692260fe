// trt-int8-small-layer: layers too small for INT8 to pay off, by one threshold (16 channels per group) applied to every
// layer alike. One finding per model.
#include "core/lint/lint_context.h"
#include "core/lint/rules/int8_mac_share.h"
#include "core/lint/rules/layer_channels.h"
#include "core/lint/rules/rules.h"

namespace ql::rules {

namespace {

constexpr RuleInfo kInfo{
    "trt-int8-small-layer", Severity::Info, kAllTrtVersions,
    "A layer is too small for INT8 to pay off when one of its groups has fewer than 16 input or output channels (a "
    "depthwise convolution's groups have 1 of each; a MatMul or Gemm is one group of K inputs and N outputs), unless "
    "it is a grouped or depthwise convolution whose kernel is at least 3 in every spatial dimension, which NVIDIA's "
    "Model Optimizer keeps INT8: the Q/DQ around a small layer cost more than its INT8 kernel saves. "
    "trt-int8-channel-alignment applies the same threshold to ungrouped layers (a count under 16 is never a multiple "
    "of 16) and reports them, leaving a first layer's image channels out as this rule does; trt-int8-gemv reports "
    "matrix-vector products; neither is repeated here. So this rule fires on grouped convolutions under the threshold "
    "(1x1 grouped or depthwise convolutions, say), once per model, as info: how many, the share of the INT8 "
    "multiply-accumulates (MACs) they carry and the largest by name. It stays silent on groups of 16 channels or more "
    "and on every depthwise convolution with a 3x3 or larger kernel alike: Model Optimizer also asks such a "
    "convolution's output channels to be a multiple of 8, but this rule leaves channel alignment to "
    "trt-grouped-conv-int8-alignment (TensorRT's multiples of 4), so every depthwise convolution of a network is "
    "judged the same way.",
    "TensorRT Model Optimizer modelopt/onnx/quantization/graph_utils.py (find_nodes_from_convs_to_exclude, "
    "find_nodes_from_matmul_to_exclude) and int8.py"};

constexpr int64_t kMinKernel = 3;
constexpr size_t kLayersShown = 3;

// Model Optimizer's exception for grouped convolutions: a kernel of at least 3 in every spatial dimension. Unknown
// kernel sizes count as large (the rule stays silent).
bool largeKernel(const LintContext& context, const Node& node) {
    const std::vector<int64_t> w = context.dims(node.inputs[1]);
    for (size_t i = 2; i < w.size(); ++i)
        if (w[i] >= 0 && w[i] < kMinKernel) return false;
    return true;
}

std::string kernelText(const LintContext& context, const Node& node) {
    const std::vector<int64_t> w = context.dims(node.inputs[1]);
    std::string text;
    for (size_t i = 2; i < w.size(); ++i) text += lintText(i > 2 ? "x" : "", w[i]);
    return text;
}

class Int8SmallLayerRule final : public LintRule {
public:
    const RuleInfo& info() const override { return kInfo; }

    void check(const LintContext& context, std::vector<Finding>& findings) const override {
        std::vector<AffectedLayer> layers;
        for (const Node& node : context.graph().nodes()) {
            if (!context.int8Planned(node.id)) continue;
            const auto ch = layerChannels(context, node);
            // An ungrouped layer under 16 is trt-int8-channel-alignment's (a count under 16 is never a multiple of 16).
            if (!ch || ch->group == 1 || !ch->small() || largeKernel(context, node)) continue;
            layers.push_back({&node, lintText("C=", ch->c, ", K=", ch->k, " per group, group ", ch->group, ", kernel ",
                                              kernelText(context, node))});
        }
        if (layers.empty()) return;
        sortByMacs(layers);
        const bool one = layers.size() == 1;
        const auto share = int8MacShare(context, layers);
        std::string message = lintText(
            layerCountText(layers.size(), "INT8 grouped convolution"), one ? " has" : " have", " fewer than ",
            kInt8MinChannels, " channels per group and a kernel smaller than ", kMinKernel, " in some dimension, and ",
            one ? "carries " : "carry ", macShareText(share), ": ", largestLayersText(layers, kLayersShown, share),
            ". The Q/DQ around ", one ? "it cost" : "them cost", " more than INT8 saves");
        const std::string fix =
            one ? lintText("keep this layer FP16 (",
                           context.explicitQuantization() ? "remove the Q/DQ on its inputs" : "plan it FP16", ")")
                : lintText("keep these layers FP16 (",
                           context.explicitQuantization() ? "remove the Q/DQ on their inputs" : "plan them FP16", ")");
        findings.push_back(context.finding(kInfo, *layers.front().node, Severity::Info, std::move(message),
                                           fix + ", as Model Optimizer does"));
    }
};

}  // namespace

std::unique_ptr<LintRule> makeInt8SmallLayerRule() {
    return std::make_unique<Int8SmallLayerRule>();
}

}  // namespace ql::rules
