// trt-opset-range: the default-domain opset must be one the target's parser handles.
#include "core/lint/lint_context.h"
#include "core/lint/rules/rules.h"

namespace ql::rules {

namespace {

constexpr RuleInfo kInfo{
    "trt-opset-range", Severity::Warning, kAllTrtVersions,
    "Each TensorRT release imports ONNX models up to a given opset: 8.6 \"up to opset 17\", 10.x opset 9 to 24 "
    "(10.15). Operators whose definition changed in a newer opset may not import or may behave differently.",
    "onnx-tensorrt docs/operators.md headers (8.6-GA; 10.15 at fa5aa9f)"};

class OpsetRangeRule final : public LintRule {
public:
    const RuleInfo& info() const override { return kInfo; }

    void check(const LintContext& context, std::vector<Finding>& findings) const override {
        const Graph& graph = context.graph();
        if (graph.nodes().empty()) return;
        const int64_t opset = graph.opsetVersion("");
        const bool trt86 = context.version() == TrtVersion::Trt86;
        const int64_t lowest = trt86 ? 1 : 9;
        const int64_t highest = trt86 ? 17 : 24;
        if (opset == 0 || (opset >= lowest && opset <= highest)) return;
        findings.push_back(
            context.finding(kInfo, graph.nodes().front(), Severity::Warning,
                            lintText("the model imports ONNX opset ", opset, "; TensorRT ",
                                     trtVersionName(context.version()), " handles opsets ", lowest, " to ", highest),
                            lintText("re-export the model with an opset between ", lowest, " and ", highest)));
    }
};

}  // namespace

std::unique_ptr<LintRule> makeOpsetRangeRule() {
    return std::make_unique<OpsetRangeRule>();
}

}  // namespace ql::rules
