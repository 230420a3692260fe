// trt-qdq-type: the quantized type of a QuantizeLinear/DequantizeLinear must be one TensorRT takes.
#include <array>

#include "core/lint/lint_context.h"
#include "core/lint/rules/rules.h"
#include "core/model/constant_values.h"

namespace ql::rules {

namespace {

constexpr RuleInfo kInfo{
    "trt-qdq-type", Severity::Error, kAllTrtVersions,
    "TensorRT quantizes to four types: INT8, FP8 E4M3 (FLOAT8E4M3FN), INT4 (weights only) and FP4 E2M1 "
    "(FLOAT4E2M1); TensorRT 8.6 to INT8 alone. The ONNX Q/DQ operators allow more with every opset: INT16/UINT16 and "
    "UINT4 (opset 21), the other FP8 variants (E4M3FNUZ, E5M2, E5M2FNUZ, opset 19), FLOAT8E8M0 (opset 24) and "
    "INT2/UINT2 (opset 25). The parser rejects a Q/DQ of any of them. The rule reads the type from the "
    "QuantizeLinear's output_dtype or zero point and from the DequantizeLinear's quantized input or zero point; "
    "UINT8 is trt-qdq-nonsymmetric's (TensorRT takes it only on DLA). It stays silent on the four types above and "
    "on Q/DQ whose type it cannot read.",
    "TensorRT documentation \"Working with Quantized Types\" (11.3: \"Supported Data Types: INT8, INT4 (weight-only), "
    "FP8E4M3, FP4E2M1\"); ONNX QuantizeLinear-19/21/23/24/25 type constraints; onnx-tensorrt "
    "QuantDequantLinearHelper (\"Found unsupported input type\"); TensorRT 8.6 onnx-tensorrt docs/operators.md "
    "(DequantizeLinear: INT8)"};

// onnx::TensorProto_DataType numbers of the quantized types.
enum OnnxType : int32_t {
    kUInt8 = 2,
    kInt8 = 3,
    kUInt16 = 4,
    kInt16 = 5,
    kFloat8E4M3FN = 17,
    kFloat8E4M3FNUZ = 18,
    kFloat8E5M2 = 19,
    kFloat8E5M2FNUZ = 20,
    kUInt4 = 21,
    kInt4 = 22,
    kFloat4E2M1 = 23,
    kFloat8E8M0 = 24,
    kUInt2 = 25,
    kInt2 = 26,
};

const char* typeName(int32_t type) {
    switch (type) {
        case kUInt16:
            return "UINT16";
        case kInt16:
            return "INT16";
        case kFloat8E4M3FN:
            return "FLOAT8E4M3FN";
        case kFloat8E4M3FNUZ:
            return "FLOAT8E4M3FNUZ";
        case kFloat8E5M2:
            return "FLOAT8E5M2";
        case kFloat8E5M2FNUZ:
            return "FLOAT8E5M2FNUZ";
        case kUInt4:
            return "UINT4";
        case kInt4:
            return "INT4";
        case kFloat4E2M1:
            return "FLOAT4E2M1";
        case kFloat8E8M0:
            return "FLOAT8E8M0";
        case kUInt2:
            return "UINT2";
        case kInt2:
            return "INT2";
        default:
            return nullptr;
    }
}

bool takenBy(TrtVersion version, int32_t type) {
    if (type == kInt8 || type == kUInt8) return true;  // UINT8: trt-qdq-nonsymmetric
    if (version == TrtVersion::Trt86) return false;
    return type == kFloat8E4M3FN || type == kInt4 || type == kFloat4E2M1;
}

// The quantized type the node reads or writes; 0 when the file does not say (a QuantizeLinear without zero point
// or output_dtype is UINT8 by ONNX's default, which trt-qdq-nonsymmetric reports).
int32_t quantizedType(const Graph& graph, const Node& node) {
    if (isOp(node, "QuantizeLinear"))
        if (const int64_t t = node.intAttribute("output_dtype", 0); t != 0) return static_cast<int32_t>(t);
    if (node.inputs.size() > 2 && node.inputs[2] != kNoId)
        if (const int32_t t = constantOnnxType(graph, node.inputs[2]); t != 0) return t;
    if (isOp(node, "DequantizeLinear") && !node.inputs.empty()) return constantOnnxType(graph, node.inputs[0]);
    return 0;
}

class QdqTypeRule final : public LintRule {
public:
    const RuleInfo& info() const override { return kInfo; }

    void check(const LintContext& context, std::vector<Finding>& findings) const override {
        for (const Node& node : context.graph().nodes()) {
            if (!isOp(node, "QuantizeLinear") && !isOp(node, "DequantizeLinear")) continue;
            const int32_t type = quantizedType(context.graph(), node);
            const char* name = typeName(type);
            if (name == nullptr || takenBy(context.version(), type)) continue;
            const bool trt86 = context.version() == TrtVersion::Trt86;
            findings.push_back(context.finding(
                kInfo, node, Severity::Error,
                lintText(node.opType, " quantizes to ", name, ": TensorRT ", trtVersionName(context.version()),
                         " takes ", trt86 ? "only INT8" : "INT8, FLOAT8E4M3FN, INT4 (weights) and FLOAT4E2M1",
                         " and the parser rejects the node"),
                trt86 ? std::string("quantize to INT8, or target TensorRT 10 or 11 for FP8/INT4/FP4")
                      : std::string("quantize to INT8 (or FP8 E4M3 / INT4 weights / FP4 where the GPU has them)")));
        }
    }
};

}  // namespace

std::unique_ptr<LintRule> makeQdqTypeRule() {
    return std::make_unique<QdqTypeRule>();
}

}  // namespace ql::rules
