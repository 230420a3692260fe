// trt-unsupported-op: operators TensorRT's ONNX parser cannot import (including quantized-operator format).
#include <set>

#include "core/lint/lint_context.h"
#include "core/lint/rules/rules.h"
#include "core/lint/trt_op_support.h"

namespace ql::rules {

namespace {

constexpr RuleInfo kInfo{
    "trt-unsupported-op", Severity::Error, kAllTrtVersions,
    "TensorRT's ONNX parser imports a fixed list of operators; any other operator stops the build with \"No importer "
    "registered for op\" unless you supply a plugin. Models quantized in ONNX Runtime's QOperator format or with its "
    "dynamic quantization (QLinearConv, QLinearMatMul, ConvInteger, MatMulInteger, DynamicQuantizeLinear) cannot be "
    "imported at all: TensorRT only reads quantization written as QuantizeLinear/DequantizeLinear (Q/DQ) pairs. "
    "TensorRT's own quantization ops that NVIDIA's Model Optimizer writes (TRT_FP8QuantizeLinear, "
    "TRT_INT4DequantizeLinear, TRT_MXFP8DynamicQuantize, TRT_FP4QDQ, ...; domain \"trt\") are recognized: the 10.x "
    "parser imports them (from 10.15) and so does 11.x, while 8.6 cannot.",
    "onnx-tensorrt docs/operators.md (10.15 at fa5aa9f, 8.6-GA); NVIDIA/TensorRT#3165 (\"No importer registered for "
    "op\"); TensorRT Developer Guide 8.x \"Working with QAT Networks\"; NVIDIA/TensorRT CHANGELOG 10.15 and "
    "NVIDIA/Model-Optimizer modelopt/onnx (ModelOpt quantization ops)"};

bool isQuantizedOperatorFormat(const std::string& op) {
    static const std::set<std::string> ops = {"QLinearConv", "QLinearMatMul", "ConvInteger", "MatMulInteger",
                                              "DynamicQuantizeLinear"};
    return ops.count(op) > 0;
}

// TensorRT's own quantization ops, written by NVIDIA's Model Optimizer in the "trt" domain (older exporters: the
// default domain); the ONNX parser imports them from 10.15.
bool isTrtQuantizationOp(const Node& node) {
    static const std::set<std::string> ops = {
        "TRT_FP8QuantizeLinear",    "TRT_FP8DequantizeLinear", "TRT_INT4QuantizeLinear",
        "TRT_INT4DequantizeLinear", "TRT_MXFP8QuantizeLinear", "TRT_MXFP8DequantizeLinear",
        "TRT_MXFP8DynamicQuantize", "TRT_FP4DynamicQuantize",  "TRT_FP4QDQ"};
    const bool domain = node.domain.empty() || node.domain == "ai.onnx" || node.domain == "trt";
    return domain && ops.count(node.opType) > 0;
}

class UnsupportedOpRule final : public LintRule {
public:
    const RuleInfo& info() const override { return kInfo; }

    void check(const LintContext& context, std::vector<Finding>& findings) const override {
        const char* version = trtVersionName(context.version());
        for (const Node& node : context.graph().nodes()) {
            const bool defaultDomain = node.domain.empty() || node.domain == "ai.onnx";
            if (isTrtQuantizationOp(node)) {
                if (context.version() != TrtVersion::Trt86) continue;
                findings.push_back(context.finding(
                    kInfo, node, Severity::Error,
                    lintText(node.opType,
                             " is one of TensorRT's own quantization ops (Model Optimizer export); the "
                             "ONNX parser imports it only from TensorRT 10.15, so TensorRT 8.6 cannot"),
                    "target TensorRT 10.15 or later, or re-export with standard QuantizeLinear/DequantizeLinear "
                    "(INT8) for 8.6"));
                continue;
            }
            if (defaultDomain && isQuantizedOperatorFormat(node.opType)) {
                findings.push_back(context.finding(
                    kInfo, node, Severity::Error,
                    lintText(node.opType, " is ONNX Runtime's quantized-operator format, which TensorRT ", version,
                             " cannot import"),
                    "quantize in Q/DQ format instead (ONNX Runtime QuantFormat.QDQ with static calibration, or "
                    "QuantLens export), starting from the float model"));
                continue;
            }
            if (!defaultDomain) {
                findings.push_back(context.finding(
                    kInfo, node, Severity::Error,
                    lintText("operator ", node.domain, "::", node.opType,
                             " is not an ONNX standard operator; TensorRT ", version, " has no importer for it"),
                    "export without this custom operator, or provide a TensorRT plugin named " + node.opType));
                continue;
            }
            const TrtOpSupport support = trtOpSupport(node.opType, context.version());
            if (support == TrtOpSupport::Yes) continue;
            findings.push_back(context.finding(
                kInfo, node, Severity::Error,
                lintText(node.opType, support == TrtOpSupport::No ? " is not supported by" : " is not listed for",
                         " TensorRT ", version, "'s ONNX parser; the build fails"),
                "replace this operator with supported ones before export, or provide a TensorRT plugin"));
        }
    }
};

}  // namespace

std::unique_ptr<LintRule> makeUnsupportedOpRule() {
    return std::make_unique<UnsupportedOpRule>();
}

}  // namespace ql::rules
