// trt-unsupported-op: operators TensorRT's ONNX parser cannot import (including quantized-operator format).
#include <map>
#include <set>

#include "core/export/qoperator_import.h"
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
    "imported at all: TensorRT only reads quantization written as QuantizeLinear/DequantizeLinear (Q/DQ) pairs. Such "
    "a model has one of these ops per layer, so each operator is reported once, with its count; `lint` reports the "
    "file as shipped and then analyses the float model it was made from, and the window offers that float model in "
    "one click. "
    "TensorRT's own quantization ops that NVIDIA's Model Optimizer writes (TRT_FP8QuantizeLinear, "
    "TRT_INT4DequantizeLinear, TRT_MXFP8DynamicQuantize, TRT_FP4QDQ, ...; domain \"trt\") are recognized: the 10.x "
    "parser imports them (from 10.15) and so does 11.x, while 8.6 cannot.",
    "onnx-tensorrt docs/operators.md (10.15 at fa5aa9f, 8.6-GA); NVIDIA/TensorRT#3165 (\"No importer registered for "
    "op\"); TensorRT Developer Guide 8.x \"Working with QAT Networks\"; NVIDIA/TensorRT CHANGELOG 10.15 and "
    "NVIDIA/Model-Optimizer modelopt/onnx (ModelOpt quantization ops)"};

// "ConvInteger", "com.microsoft::QLinearAdd": how an operator-form op is named in the finding.
std::string qualifiedOp(const Node& node) {
    const bool defaultDomain = node.domain.empty() || node.domain == "ai.onnx";
    return defaultDomain ? node.opType : node.domain + "::" + node.opType;
}

// ONNX Runtime's operator form (integer and QLinear* ops, qoperator_import.h): one finding per operator, on its first
// node, with the count. Such a model has one of each per layer, and hundreds of the same error hide the one fix.
void reportOperatorForm(const LintContext& context, std::vector<Finding>& findings) {
    std::vector<std::pair<const Node*, int>> firstAndCount;
    std::map<std::string, size_t> index;
    for (const Node& node : context.graph().nodes()) {
        if (!isQOperatorNode(node)) continue;
        auto [it, added] = index.try_emplace(qualifiedOp(node), firstAndCount.size());
        if (added) firstAndCount.emplace_back(&node, 0);
        ++firstAndCount[it->second].second;
    }
    for (const auto& [node, count] : firstAndCount)
        findings.push_back(context.finding(
            kInfo, *node, Severity::Error,
            lintText(qualifiedOp(*node), " (", count, count == 1 ? " node" : " nodes",
                     ") is ONNX Runtime's quantized operator form, which TensorRT ", trtVersionName(context.version()),
                     "'s ONNX parser cannot import: the file as shipped does not build"),
            "export Q/DQ instead: `quantlens-cli quantize MODEL --calib CALIB.json -o OUT.onnx` re-exports it from the "
            "float import it was made from (QuantLens lints, calibrates and tunes that float import)"));
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
        reportOperatorForm(context, findings);
        for (const Node& node : context.graph().nodes()) {
            if (isQOperatorNode(node)) continue;
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
