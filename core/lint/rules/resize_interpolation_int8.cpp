// trt-resize-interpolation-int8: a linear or cubic Resize that TensorRT runs on INT8 codes (quantization moved across
// it), where only nearest commutes with quantization.
#include <cmath>

#include "core/lint/lint_context.h"
#include "core/lint/rules/rules.h"

namespace ql::rules {

namespace {

constexpr RuleInfo kInfo{
    "trt-resize-interpolation-int8", Severity::Warning, kAllTrtVersions,
    "Between quantized layers TensorRT runs a Resize in INT8: it moves the QuantizeLinear that follows the Resize in "
    "front of it (DQ -> Resize -> Q becomes an INT8 Resize), and ONNX Runtime did the same until 2026. Nearest "
    "resizing only selects values, so it commutes with quantization and nothing changes. Linear and cubic resizing "
    "interpolate: computed on INT8 codes they round the inputs before averaging, so the result differs from the "
    "float Resize the model states (by up to a quantization step), and cubic interpolation's overshoot beyond the "
    "input's range is clipped. Where the upsampled values matter (segmentation logits, a detector's fused "
    "features), keep the Resize and its consumer in FP16 or use nearest.",
    "microsoft/onnxruntime#21319 and PR #28414 (\"nearest resampling only selects existing values, so it commutes with "
    "quantization; linear/cubic interpolate ... folding Q/DQ into an integer Resize changes numerical results\"); "
    "NVIDIA/TensorRT#2976 (Resize run in INT8 for resize -> Q/DQ -> conv)"};

// DQ -> Resize -> Q with one scale: a pair placed (or moved) around the Resize, which the runtime folds.
bool quantizedAround(const LintContext& context, const Node& resize) {
    const Node* dq = context.producer(resize.inputs[0]);
    if (dq == nullptr || !isOp(*dq, "DequantizeLinear")) return false;
    const auto in = qdqScales(context.graph(), *dq);
    if (!in || resize.outputs.empty() || resize.outputs[0] == kNoId) return false;
    for (NodeId c : context.graph().value(resize.outputs[0]).consumers) {
        const Node& q = context.graph().node(c);
        if (!isOp(q, "QuantizeLinear")) continue;
        const auto out = qdqScales(context.graph(), q);
        if (out && out->size() == 1 && in->size() == 1 &&
            std::fabs(out->front() - in->front()) <= 1e-6f * std::fabs(in->front()))
            return true;
    }
    return false;
}

class ResizeInterpolationInt8Rule final : public LintRule {
public:
    const RuleInfo& info() const override { return kInfo; }

    void check(const LintContext& context, std::vector<Finding>& findings) const override {
        for (const Node& node : context.graph().nodes()) {
            if (!isOp(node, "Resize") || node.inputs.empty() || node.inputs[0] == kNoId) continue;
            const std::string mode = node.stringAttribute("mode", "nearest");
            if (mode == "nearest") continue;
            const bool int8 =
                context.explicitQuantization() ? quantizedAround(context, node) : context.int8Planned(node.id);
            if (!int8) continue;
            const bool cubic = mode == "cubic";
            findings.push_back(context.finding(
                kInfo, node, cubic ? Severity::Warning : Severity::Info,
                lintText("this ", mode,
                         " Resize runs on INT8 codes in TensorRT: the interpolation reads rounded "
                         "inputs and differs from the float Resize by up to a quantization step",
                         cubic ? "; cubic overshoot beyond the input's range is clipped" : ""),
                "if the upsampled values matter, keep this Resize and its consumer in FP16, or resize with "
                "mode=nearest"));
        }
    }
};

}  // namespace

std::unique_ptr<LintRule> makeResizeInterpolationInt8Rule() {
    return std::make_unique<ResizeInterpolationInt8Rule>();
}

}  // namespace ql::rules
