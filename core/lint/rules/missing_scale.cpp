// trt-missing-scale: a weighted layer runs INT8 only when both its data and its weight are quantized.
#include "core/lint/lint_context.h"
#include "core/lint/rules/rules.h"

namespace ql::rules {

namespace {

constexpr RuleInfo kInfo{
    "trt-missing-scale", Severity::Warning, kAllTrtVersions,
    "A convolution, transposed convolution, Gemm or MatMul runs in INT8 only when all of its inputs (data and "
    "weight) have a scale, i.e. come through a DequantizeLinear. When only one of them is quantized TensorRT has no "
    "INT8 kernel to use (\"Missing scale and zero-point for tensor ...\") and the layer runs in FP16/FP32, with "
    "extra conversions around it.",
    "TensorRT Developer Guide 8.x \"Quantize all inputs of weighted-operations\"; TensorRT issue logs \"Missing scale "
    "and zero-point for tensor\" (NVIDIA/TensorRT#4555, #3659, #4058, #2462, #3131, #1785); TensorRT Model Optimizer "
    "modelopt/onnx/quantization (Q/DQ on inputs and weights: \"AddQDQPairToWeight\": True)"};

class MissingScaleRule final : public LintRule {
public:
    const RuleInfo& info() const override { return kInfo; }

    void check(const LintContext& context, std::vector<Finding>& findings) const override {
        if (!context.explicitQuantization()) return;  // the exporter quantizes every input of an INT8 layer
        const Graph& graph = context.graph();
        for (const Node& node : graph.nodes()) {
            if (!isWeightedLayer(node) || node.inputs.size() < 2 || node.inputs[0] == kNoId ||
                node.inputs[1] == kNoId || !context.int8Planned(node.id))
                continue;
            for (size_t slot = 0; slot < 2; ++slot) {
                if (context.inputLink(node.id, slot) != nullptr) continue;
                const size_t other = 1 - slot;
                findings.push_back(context.finding(
                    kInfo, node, Severity::Warning,
                    lintText(slot == 0 ? "data" : "weight", " input '", graph.value(node.inputs[slot]).name,
                             "' has no scale while ", other == 0 ? "data" : "weight", " input '",
                             graph.value(node.inputs[other]).name,
                             "' is quantized: TensorRT cannot run this layer in INT8 and falls back to FP16/FP32"),
                    lintText("quantize '", graph.value(node.inputs[slot]).name,
                             "' too (QuantizeLinear/DequantizeLinear), or remove the Q/DQ on '",
                             graph.value(node.inputs[other]).name, "' to keep the layer in float on purpose"),
                    true));
                break;
            }
        }
    }
};

}  // namespace

std::unique_ptr<LintRule> makeMissingScaleRule() {
    return std::make_unique<MissingScaleRule>();
}

}  // namespace ql::rules
