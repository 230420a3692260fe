// trt-qdq-axis-mismatch: per-channel weight scales must run along the output-channel axis TensorRT expects, with
// one scale per channel, and the axis must be written (ONNX and TensorRT default it differently).
#include "core/lint/rules/rules.h"
#include "core/lint/rules/weight_axis.h"

namespace ql::rules {

namespace {

constexpr RuleInfo kInfo{
    "trt-qdq-axis-mismatch", Severity::Error, kAllTrtVersions,
    "Per-channel weight quantization needs one scale per output channel, along the axis that holds the output "
    "channels: axis 0 for Conv weights [K, C, kH, kW], axis 0 for Gemm with transB=1 and axis 1 without, the last "
    "axis for MatMul weights. A scale count that does not match the weight fails the build; a wrong axis with a "
    "matching count (square weights) builds but scales the wrong channels. When the axis attribute is left out, "
    "ONNX Runtime reads axis 1 and TensorRT reads axis 0, so the two compute different things.",
    "onnx-tensorrt QuantDequantLinearHelper (\"The number of scales is not equal to the number of output channels\", "
    "axis default); TensorRT NvInfer.h IQuantizeLayer; TensorRT Model Optimizer qdq_utils.py axis map; TensorRT "
    "Developer Guide 8.x \"Working with QAT Networks\" (Gemm weight axis of PyTorch and TensorFlow exports); ONNX "
    "QuantizeLinear/DequantizeLinear (axis default 1)"};

// The output-channel axis of a layer's weight, or -1 when the rule does not check this layer/slot.
int64_t expectedAxis(const Node& layer, int32_t slot, size_t rank) {
    if (slot != 1) return -1;
    if (isOp(layer, "Conv")) return 0;
    if (isOp(layer, "Gemm")) return layer.intAttribute("transB", 0) != 0 ? 0 : 1;
    if (isOp(layer, "MatMul")) return static_cast<int64_t>(rank) - 1;
    return -1;
}

class QdqAxisMismatchRule final : public LintRule {
public:
    const RuleInfo& info() const override { return kInfo; }

    void check(const LintContext& context, std::vector<Finding>& findings) const override {
        for (const QdqLink& link : context.graph().qdqLinks()) {
            if (link.layer == kNoId || !link.isWeight || !link.paramsKnown || !link.params.perChannel()) continue;
            const Node& layer = context.graph().node(link.layer);
            const WeightAxis a = trtWeightAxis(context, link);
            if (!a.explicitAxis)
                findings.push_back(context.finding(
                    kInfo, layer, Severity::Warning,
                    lintText("per-channel weight DequantizeLinear '", context.graph().node(link.dequantize).name,
                             "' has no axis attribute: ONNX Runtime reads axis 1, TensorRT reads axis 0"),
                    "write the axis attribute explicitly on the QuantizeLinear/DequantizeLinear nodes"));
            if (isOp(layer, "ConvTranspose")) continue;  // trt-convtranspose-weight-axis owns its axis
            if (auto f = axisVerdict(context, link, layer, a)) findings.push_back(*f);
        }
    }

private:
    static std::optional<Finding> axisVerdict(const LintContext& context, const QdqLink& link, const Node& layer,
                                              const WeightAxis& a) {
        if (a.dims.empty()) return std::nullopt;
        const std::string fix = "quantize the weight per channel along its output-channel axis and write that axis";
        if (a.axis < 0)
            return context.finding(
                kInfo, layer, Severity::Error,
                lintText("weight ", joinInts(a.dims), " is quantized on axis ",
                         context.graph().node(link.dequantize).intAttribute("axis", 0), ", which does not exist"),
                fix);
        const int64_t size = a.dims[static_cast<size_t>(a.axis)];
        if (size >= 0 && size != a.scaleCount)
            return context.finding(
                kInfo, layer, Severity::Error,
                lintText(a.scaleCount, " weight scales on axis ", a.axis, " of weight ", joinInts(a.dims), " (", size,
                         " channels): TensorRT fails with \"The number of scales is not "
                         "equal to the number of output channels\""),
                fix);
        // Only judge the axis when the dequantized tensor feeds the layer directly (no Transpose in between).
        const Node& dq = context.graph().node(link.dequantize);
        if (layer.inputs[static_cast<size_t>(link.layerInput)] != dq.outputs[0]) return std::nullopt;
        const int64_t expected = expectedAxis(layer, link.layerInput, a.dims.size());
        if (expected < 0 || expected == a.axis) return std::nullopt;
        return context.finding(
            kInfo, layer, Severity::Warning,
            lintText("weight ", joinInts(a.dims), " is quantized per channel on axis ", a.axis,
                     " but its output channels are on axis ", expected, ": the scales apply to the wrong channels"),
            fix);
    }
};

}  // namespace

std::unique_ptr<LintRule> makeQdqAxisMismatchRule() {
    return std::make_unique<QdqAxisMismatchRule>();
}

}  // namespace ql::rules
