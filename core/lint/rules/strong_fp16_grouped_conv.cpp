// trt-strong-fp16-grouped-conv: TensorRT 11.2 finds no FP16 kernel for a strongly typed grouped Conv/ConvTranspose.
#include "core/lint/lint_context.h"
#include "core/lint/rules/rules.h"

namespace ql::rules {

namespace {

constexpr RuleInfo kInfo{
    "trt-strong-fp16-grouped-conv", Severity::Error, kTrt11Only,
    "TensorRT 11 builds every network strongly typed, so a Conv or ConvTranspose whose tensors are float16 must run "
    "an FP16 kernel. For grouped convolutions (group > 1: depthwise convolutions included) TensorRT 11.2 finds none "
    "and the build stops with \"No low-precision conv kernel available for this strongly-typed Conv/ConvTranspose\" "
    "and \"Could not find any implementation for node\"; TensorRT 10.16 builds the same model, and FP32 builds on "
    "11.2. The rule fires on a grouped convolution that computes in FP16: its input is float16 in the file (a "
    "float16 model, an FP16 island), or the plan runs it FP16, which QuantLens's TensorRT 11 export writes as "
    "float16. It stays silent on FP32 and INT8 grouped convolutions (float32 around their Q/DQ), on ungrouped ones "
    "and for TensorRT 8.6 and 10.x.",
    "NVIDIA/TensorRT#4838 (\"FP16 model compilation failure with TensorRT 11.2.1.2\": Input -> Cast(FP16) -> "
    "Conv(grouped) -> Cast(FP32) fails, 10.16.1.11 builds it; the error suggests keeping Conv/ConvTranspose and Q/DQ "
    "in FP32)"};

bool isGroupedConv(const Node& node) {
    return (isOp(node, "Conv") || isOp(node, "ConvTranspose")) && !node.inputs.empty() &&
           node.intAttribute("group", 1) > 1;
}

// Where the FP16 comes from, or empty when the convolution does not compute in FP16.
std::string fp16Source(const LintContext& context, const Node& node) {
    if (node.inputs[0] != kNoId && context.graph().value(node.inputs[0]).type.dtype == DataType::Float16)
        return "its input is float16";
    if (context.plannedEffective(node.id) == Precision::Fp16) return "the plan runs it FP16";
    return {};
}

class StrongFp16GroupedConvRule final : public LintRule {
public:
    const RuleInfo& info() const override { return kInfo; }

    void check(const LintContext& context, std::vector<Finding>& findings) const override {
        for (const Node& node : context.graph().nodes()) {
            if (!isGroupedConv(node)) continue;
            const std::string source = fp16Source(context, node);
            if (source.empty()) continue;
            findings.push_back(context.finding(
                kInfo, node, Severity::Error,
                lintText(node.opType, " with group ", node.intAttribute("group", 1), " computes in FP16 (", source,
                         "): TensorRT 11.2 has no strongly typed FP16 kernel for a grouped convolution and fails "
                         "the build (\"No low-precision conv kernel available\"); 10.16 builds it"),
                "plan this layer FP32 (the TensorRT 11 export writes it as a float32 island), or INT8; or build "
                "with TensorRT 10.16"));
        }
    }
};

}  // namespace

bool lacksStrongFp16Kernel(TrtVersion version, const Node& node) {
    return version == TrtVersion::Trt11 && isGroupedConv(node);
}

std::unique_ptr<LintRule> makeStrongFp16GroupedConvRule() {
    return std::make_unique<StrongFp16GroupedConvRule>();
}

}  // namespace ql::rules
