// trt-qdq-nonsymmetric: TensorRT's Q/DQ are symmetric INT8 with constant, positive scales.
#include <cmath>

#include "core/lint/lint_context.h"
#include "core/lint/rules/rules.h"
#include "core/model/constant_values.h"

namespace ql::rules {

namespace {

constexpr RuleInfo kInfo{
    "trt-qdq-nonsymmetric", Severity::Error, kAllTrtVersions,
    "TensorRT only supports symmetric INT8 quantization: every QuantizeLinear/DequantizeLinear needs a zero point of "
    "0 stored as INT8 (not UINT8), scales that are constants in the model and strictly positive, and as many zero "
    "points as scales. Models quantized asymmetrically (ONNX Runtime's default UINT8 activations, for instance) fail "
    "to import. A QuantizeLinear without a zero point means UINT8 to ONNX Runtime but INT8 to TensorRT, so the two "
    "compute different results. A non-zero zero point stops the build with \"Assertion failed: "
    "shiftIsAllZeros(zeroPoint): Non-zero zero point is not supported\".",
    "onnx-tensorrt QuantDequantLinearHelper (\"TensorRT only supports symmetric quantization\", \"Found unsupported "
    "input type of UINT8\", \"Scale coefficients must all be positive\"); TensorRT NvInfer.h IQuantizeLayer; "
    "onnx-tensorrt docs/operators.md (\"y_zero_point must be 0\"); NVIDIA/TensorRT #4698"};

struct Problems {
    Severity severity = Severity::Info;
    std::string message;
    void add(Severity s, const std::string& m) {
        if (message.empty() || s < severity) severity = s;
        message += lintText(message.empty() ? "" : "; ", m);
    }
};

DataType dtypeOf(const Graph& graph, ValueId id) {
    const DataType constant = constantDataType(graph, id);
    return constant != DataType::Undefined ? constant : graph.value(id).type.dtype;
}

void checkScale(const Graph& graph, const Node& node, Problems& p) {
    const ValueId scale = node.inputs.size() > 1 ? node.inputs[1] : kNoId;
    if (scale == kNoId) return;
    const auto scales = constantFloats(graph, scale);
    if (!scales) {
        p.add(Severity::Error,
              lintText("scale '", graph.value(scale).name, "' is computed at run time, not a constant"));
        return;
    }
    if (scales->empty()) p.add(Severity::Error, lintText("scale '", graph.value(scale).name, "' has no values"));
    for (float s : *scales) {
        if (s > 0.0f) continue;
        p.add(Severity::Error, lintText("scale '", graph.value(scale).name, "' holds ", s, ", not a positive value"));
        break;
    }
}

void checkZeroPoint(const Graph& graph, const Node& node, Problems& p) {
    const ValueId zp = node.inputs[2];
    if (dtypeOf(graph, zp) == DataType::UInt8)
        p.add(Severity::Error, lintText("zero point '", graph.value(zp).name, "' is UINT8; TensorRT only takes INT8"));
    const auto zps = constantInt64s(graph, zp);
    if (!zps) {
        p.add(Severity::Error, lintText("zero point '", graph.value(zp).name, "' is not a constant"));
        return;
    }
    for (int64_t z : *zps) {
        if (z == 0) continue;
        p.add(Severity::Error, lintText("zero point '", graph.value(zp).name, "' holds ", z,
                                        " (asymmetric): TensorRT fails with \"Assertion failed: "
                                        "shiftIsAllZeros(zeroPoint): Non-zero zero point is not supported\""));
        break;
    }
    const auto scales = constantFloats(graph, node.inputs[1]);
    if (scales && scales->size() != zps->size())
        p.add(Severity::Error, lintText(zps->size(), " zero points for ", scales->size(), " scales"));
}

bool feedsDequantize(const Graph& graph, const Node& q) {
    if (q.outputs.empty() || q.outputs[0] == kNoId) return false;
    for (NodeId c : graph.value(q.outputs[0]).consumers)
        if (isOp(graph.node(c), "DequantizeLinear")) return true;
    return false;
}

class QdqNonsymmetricRule final : public LintRule {
public:
    const RuleInfo& info() const override { return kInfo; }

    void check(const LintContext& context, std::vector<Finding>& findings) const override {
        const Graph& graph = context.graph();
        for (const Node& node : graph.nodes()) {
            const bool dq = isOp(node, "DequantizeLinear");
            if ((!dq && !isOp(node, "QuantizeLinear")) || node.inputs.size() < 2 || node.inputs[0] == kNoId) continue;
            const bool hasZeroPoint = node.inputs.size() > 2 && node.inputs[2] != kNoId;
            Problems p;
            if (!dq && !hasZeroPoint)
                p.add(Severity::Warning,
                      "QuantizeLinear without a zero point: ONNX Runtime quantizes to UINT8, TensorRT to INT8");
            // A Q feeding a DQ is judged on the DQ, which carries the same parameters.
            if (dq || !feedsDequantize(graph, node)) {
                checkScale(graph, node, p);
                if (hasZeroPoint)
                    checkZeroPoint(graph, node, p);
                else if (dq && context.producer(node.inputs[0]) == nullptr &&
                         dtypeOf(graph, node.inputs[0]) == DataType::UInt8)
                    p.add(Severity::Error, lintText("quantized input '", graph.value(node.inputs[0]).name,
                                                    "' is UINT8; TensorRT only takes INT8"));
            }
            if (p.message.empty()) continue;
            findings.push_back(context.finding(
                kInfo, node, p.severity, p.message,
                "re-quantize symmetrically: INT8, zero point 0 (written explicitly, one per scale), scale = "
                "max(|min|, |max|) / 127 as a positive constant"));
        }
    }
};

}  // namespace

std::unique_ptr<LintRule> makeQdqNonsymmetricRule() {
    return std::make_unique<QdqNonsymmetricRule>();
}

}  // namespace ql::rules
