// trt-int8-gemv: matrix-vector products gain nothing from INT8 Q/DQ.
#include "core/lint/lint_context.h"
#include "core/lint/rules/rules.h"

namespace ql::rules {

namespace {

constexpr RuleInfo kInfo{
    "trt-int8-gemv", Severity::Warning, kAllTrtVersions,
    "A MatMul or Gemm whose output has a single row (M = 1, e.g. a classifier head at batch size 1) or a single "
    "column (N = 1) is a matrix-vector product: it cannot use tensor cores, and the quantize/dequantize layers "
    "around it cost more than INT8 saves. NVIDIA's Model Optimizer leaves such layers unquantized.",
    "TensorRT Model Optimizer graph_utils.find_nodes_from_matmul_to_exclude (\"Either of m or n in matmul is 1 ... do "
    "not add Q/DQ layers to this matmul\")"};

// Output rows (M) and columns (N) of a MatMul/Gemm; -1 where unknown.
std::pair<int64_t, int64_t> outputRowsColumns(const LintContext& context, const Node& node) {
    const std::vector<int64_t> a = context.dims(node.inputs[0]);
    const std::vector<int64_t> b = context.dims(node.inputs[1]);
    if (isOp(node, "Gemm")) {
        if (a.size() != 2 || b.size() != 2) return {-1, -1};
        return {node.intAttribute("transA", 0) ? a[1] : a[0], node.intAttribute("transB", 0) ? b[0] : b[1]};
    }
    const int64_t n = b.size() >= 2 ? b.back() : (b.size() == 1 ? 1 : -1);
    if (a.empty()) return {-1, n};
    if (b.size() > 2) return {a.size() >= 2 ? a[a.size() - 2] : 1, n};  // batched: one GEMM per batch
    // A 2-D (or 1-D) weight is shared by every leading dimension of A: one GEMM with all of them as rows.
    int64_t m = 1;
    for (size_t i = 0; i + 1 < a.size(); ++i) m = (m < 0 || a[i] < 0) ? -1 : m * a[i];
    return {m, n};
}

class Int8GemvRule final : public LintRule {
public:
    const RuleInfo& info() const override { return kInfo; }

    void check(const LintContext& context, std::vector<Finding>& findings) const override {
        for (const Node& node : context.graph().nodes()) {
            if (!(isOp(node, "MatMul") || isOp(node, "Gemm")) || node.inputs.size() < 2) continue;
            if (!context.int8Planned(node.id)) continue;
            const auto [m, n] = outputRowsColumns(context, node);
            if (m != 1 && n != 1) continue;
            findings.push_back(context.finding(
                kInfo, node, Severity::Warning,
                lintText("INT8 ", node.opType, " with M=", m, ", N=", n,
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
