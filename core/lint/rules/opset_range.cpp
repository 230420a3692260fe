// trt-opset-range: the default-domain opset must be one the target's parser handles.
#include "core/lint/lint_context.h"
#include "core/lint/rules/rules.h"

namespace ql::rules {

namespace {

constexpr RuleInfo kInfo{
    "trt-opset-range", Severity::Warning, kAllTrtVersions,
    "Each TensorRT release imports ONNX models up to a given opset: 8.6 \"up to opset 17\", 10.x opset 9 to 24 "
    "(10.15), 11.x opset 9 to 25 (opset 25 from 11.5; 11.0 to 11.4 stop at 24). Operators whose definition changed in "
    "a newer opset may not import or may behave differently. The rule fires when the model's default-domain opset "
    "is outside the target's range, as information for opset 25 on 11.x (it needs 11.5 or later), and stays silent "
    "inside it.",
    "onnx-tensorrt docs/operators.md headers (8.6-GA; 10.15 at fa5aa9f); TensorRT 11.5 release notes (\"Added "
    "support for ONNX opset 25\"); TensorRT \"ONNX Opset Guide\" (11.x: maximum opset 25, minimum 9)"};

struct OpsetRange {
    int64_t lowest = 9;
    int64_t highest = 24;
};

OpsetRange opsetRange(TrtVersion version) {
    switch (version) {
        case TrtVersion::Trt86:
            return {1, 17};
        case TrtVersion::Trt10:
            return {9, 24};
        case TrtVersion::Trt11:
            break;
    }
    return {9, 25};
}

// The opset TensorRT 11.5 added: earlier 11.x parsers stop at 24.
constexpr int64_t kTrt115Opset = 25;

class OpsetRangeRule final : public LintRule {
public:
    const RuleInfo& info() const override { return kInfo; }

    void check(const LintContext& context, std::vector<Finding>& findings) const override {
        const Graph& graph = context.graph();
        if (graph.nodes().empty()) return;
        const int64_t opset = graph.opsetVersion("");
        const OpsetRange range = opsetRange(context.version());
        if (opset == 0) return;
        if (opset >= range.lowest && opset <= range.highest) {
            if (context.version() == TrtVersion::Trt11 && opset == kTrt115Opset)
                findings.push_back(context.finding(
                    kInfo, graph.nodes().front(), Severity::Info,
                    lintText("the model imports ONNX opset ", opset,
                             ": TensorRT 11.5 or later parses it, 11.0 to 11.4 stop at opset 24"),
                    "build with TensorRT 11.5 or later, or re-export the model with opset 24 or lower"));
            return;
        }
        findings.push_back(context.finding(
            kInfo, graph.nodes().front(), Severity::Warning,
            lintText("the model imports ONNX opset ", opset, "; TensorRT ", trtVersionName(context.version()),
                     " handles opsets ", range.lowest, " to ", range.highest),
            lintText("re-export the model with an opset between ", range.lowest, " and ", range.highest)));
    }
};

}  // namespace

std::unique_ptr<LintRule> makeOpsetRangeRule() {
    return std::make_unique<OpsetRangeRule>();
}

}  // namespace ql::rules
