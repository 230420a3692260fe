// trt-qdq-bias: TensorRT does not take quantized biases.
#include <set>

#include "core/lint/lint_context.h"
#include "core/lint/rules/rules.h"
#include "core/model/constant_values.h"

namespace ql::rules {

namespace {

constexpr RuleInfo kInfo{
    "trt-qdq-bias", Severity::Error, kAllTrtVersions,
    "TensorRT quantizes only data and weights; it adds the bias in higher precision itself. A DequantizeLinear that "
    "reads an INT32 tensor (ONNX Runtime's quantized bias) or feeds the bias input of a Conv, ConvTranspose or Gemm "
    "fails to import with \"only activation types allowed as input to this layer\".",
    "TensorRT NvInfer.h IDequantizeLayer (input must be INT8, FP8 or INT4); microsoft/onnxruntime#14229; "
    "onnx/onnx-tensorrt#850; NVIDIA/TensorRT#3360; TensorRT Model Optimizer modelopt/onnx/quantization "
    "(\"QuantizeBias\": False)"};

bool isBiasInput(const Graph& graph, const QdqLink& link) {
    if (link.layer == kNoId || link.layerInput != 2) return false;
    const Node& layer = graph.node(link.layer);
    return isOp(layer, "Conv") || isOp(layer, "ConvTranspose") || isOp(layer, "Gemm");
}

class QdqBiasRule final : public LintRule {
public:
    const RuleInfo& info() const override { return kInfo; }

    void check(const LintContext& context, std::vector<Finding>& findings) const override {
        const Graph& graph = context.graph();
        std::set<NodeId> reported;
        for (const QdqLink& link : graph.qdqLinks()) {
            const Node& dq = graph.node(link.dequantize);
            const ValueId x = dq.inputs[0];
            const DataType dtype = isConstant(graph, x) ? constantDataType(graph, x) : graph.value(x).type.dtype;
            const bool bias = isBiasInput(graph, link);
            if ((dtype != DataType::Int32 && !bias) || !reported.insert(dq.id).second) continue;
            std::string where = bias ? lintText(" and feeds the bias of ", graph.node(link.layer).opType, " '",
                                                graph.node(link.layer).name, "'")
                                     : std::string();
            findings.push_back(context.finding(
                kInfo, dq, Severity::Error,
                lintText("DequantizeLinear reads '", graph.value(x).name, "' (", dataTypeName(dtype), ")", where,
                         ": TensorRT does not accept quantized biases"),
                "store the bias as a float initializer (bias_int32 * input_scale * weight_scale) and feed it "
                "directly to the layer"));
        }
    }
};

}  // namespace

std::unique_ptr<LintRule> makeQdqBiasRule() {
    return std::make_unique<QdqBiasRule>();
}

}  // namespace ql::rules
