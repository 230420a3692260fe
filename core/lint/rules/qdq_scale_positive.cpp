// trt-qdq-scale-positive: a QuantizeLinear/DequantizeLinear scale that is zero, negative or not finite (a dead
// channel calibrated to amax 0) fails the engine build.
#include <cmath>

#include "core/lint/lint_context.h"
#include "core/lint/rules/rules.h"

namespace ql::rules {

namespace {

constexpr RuleInfo kInfo{
    "trt-qdq-scale-positive", Severity::Error, kAllTrtVersions,
    "TensorRT requires every quantization scale to be a strictly positive, finite build-time constant. A scale of 0 "
    "comes from a channel or tensor whose calibrated range is 0 (a dead ReLU channel, a pruned filter, weights that "
    "are all zero); the build stops with \"Assertion failed: scaleAllPositive\". A negative or NaN scale is a bug in "
    "the tool that wrote the model. QuantLens' own export floors every amax at 1e-8, so a dead channel keeps a tiny "
    "positive scale and quantizes to exact zeros.",
    "TensorRT operator documentation IQuantizeLayer / IDequantizeLayer (scale: positive build-time constant); "
    "NVIDIA-AI-IOT/Lidar_AI_Solution#182 (\"Assertion failed: scaleAllPositive\" from a dead channel)"};

bool positiveFinite(float s) {
    return std::isfinite(s) && s > 0.0f;
}

std::string badChannels(const std::vector<float>& scales, size_t& count) {
    std::string listed;
    count = 0;
    for (size_t i = 0; i < scales.size(); ++i) {
        if (positiveFinite(scales[i])) continue;
        if (++count <= 4)
            listed +=
                lintText(listed.empty() ? "" : ", ", scales.size() > 1 ? lintText("channel ", i, ": ") : "", scales[i]);
    }
    if (count > 4) listed += lintText(" and ", count - 4, " more");
    return listed;
}

class QdqScalePositiveRule final : public LintRule {
public:
    const RuleInfo& info() const override { return kInfo; }

    void check(const LintContext& context, std::vector<Finding>& findings) const override {
        const Graph& graph = context.graph();
        for (const Node& node : graph.nodes()) {
            if (!isOp(node, "QuantizeLinear") && !isOp(node, "DequantizeLinear")) continue;
            const auto scales = qdqScales(graph, node);
            if (!scales) continue;
            size_t count = 0;
            const std::string listed = badChannels(*scales, count);
            if (count == 0) continue;
            const std::string tensor = node.inputs[0] == kNoId ? std::string("?") : graph.value(node.inputs[0]).name;
            findings.push_back(context.finding(
                kInfo, node, Severity::Error,
                lintText("scale of '", tensor, "' is not positive (", listed,
                         "): TensorRT stops with \"Assertion failed: scaleAllPositive\""),
                "give every channel a positive scale: floor the amax of dead channels at a tiny positive value "
                "(e.g. 1e-8 / 127), or re-export with QuantLens, which does"));
        }
    }
};

}  // namespace

std::unique_ptr<LintRule> makeQdqScalePositiveRule() {
    return std::make_unique<QdqScalePositiveRule>();
}

}  // namespace ql::rules
