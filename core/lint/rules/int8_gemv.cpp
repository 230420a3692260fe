// trt-int8-gemv: matrix-vector products gain nothing from INT8 Q/DQ.
#include "core/lint/lint_context.h"
#include "core/lint/rules/rules.h"
#include "core/model/matrix_product_shape.h"

namespace ql::rules {

namespace {

constexpr RuleInfo kInfo{
    "trt-int8-gemv", Severity::Warning, kAllTrtVersions,
    "A MatMul or Gemm whose output has a single row (M = 1, e.g. a classifier head at batch size 1) or a single "
    "column (N = 1) is a matrix-vector product: it cannot use tensor cores, and the quantize/dequantize layers "
    "around it cost more than INT8 saves. NVIDIA's Model Optimizer leaves such layers unquantized, and so does "
    "QuantLens's default plan: the rule fires when a plan (or a Q/DQ model) runs one in INT8, and stays silent where "
    "M and N are both above 1 or unknown (a dynamic batch).",
    "TensorRT Model Optimizer graph_utils.find_nodes_from_matmul_to_exclude (\"Either of m or n in matmul is 1 ... do "
    "not add Q/DQ layers to this matmul\")"};

class Int8GemvRule final : public LintRule {
public:
    const RuleInfo& info() const override { return kInfo; }

    void check(const LintContext& context, std::vector<Finding>& findings) const override {
        for (const Node& node : context.graph().nodes()) {
            if (!(isOp(node, "MatMul") || isOp(node, "Gemm")) || node.inputs.size() < 2) continue;
            if (!context.int8Planned(node.id)) continue;
            const MatrixProductShape shape = matrixProductShape(context.graph(), node);
            if (!shape.matrixVector()) continue;
            findings.push_back(context.finding(
                kInfo, node, Severity::Warning,
                lintText("INT8 ", node.opType, " with M=", shape.rows, ", N=", shape.columns,
                         " is a matrix-vector product: no tensor cores, so Q/DQ cost more than INT8 saves"),
                "keep this layer in FP16 (no Q/DQ on its inputs)"));
        }
    }
};

}  // namespace

std::unique_ptr<LintRule> makeInt8GemvRule() {
    return std::make_unique<Int8GemvRule>();
}

}  // namespace ql::rules
