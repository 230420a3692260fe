#include "core/lint/operator_form.h"

#include <algorithm>

#include "core/export/qoperator_import.h"
#include "core/lint/lint_context.h"
#include "core/lint/rule_registry.h"

namespace ql {

namespace {

constexpr std::string_view kUnsupportedOp = "trt-unsupported-op";

bool sameFinding(const Finding& a, const Finding& b) {
    return a.ruleId == b.ruleId && a.nodeName == b.nodeName && a.message == b.message;
}

}  // namespace

OperatorFormLint lintOperatorForm(const Graph& shipped, const LintOptions& options) {
    OperatorFormLint result;
    for (const Node& node : shipped.nodes())
        if (isQOperatorNode(node) && std::find(result.ops.begin(), result.ops.end(), node.opType) == result.ops.end())
            result.ops.push_back(node.opType);
    if (result.ops.empty()) return result;
    const LintRule* rule = findLintRule(kUnsupportedOp);
    if (rule == nullptr || options.ignoredRules.contains(std::string(kUnsupportedOp))) return result;
    // The rule reads neither the plan nor a calibration for these ops: the default (all FP32) plan will do.
    const PrecisionPlan plan(shipped, Precision::Fp32);
    LintOptions shippedOptions = options;
    shippedOptions.calibration = nullptr;
    const LintContext context(shipped, plan, shippedOptions);
    std::vector<Finding> findings;
    rule->check(context, findings);
    for (Finding& f : findings) {
        if (f.node == kNoId || !isQOperatorNode(shipped.node(f.node))) continue;
        f.causesFallback = false;
        result.findings.push_back(std::move(f));
    }
    return result;
}

std::string operatorFormNote(const OperatorFormLint& shipped) {
    std::string ops;
    for (const std::string& op : shipped.ops) ops += (ops.empty() ? "" : ", ") + op;
    return "ONNX Runtime operator form (" + ops +
           "): TensorRT cannot parse the file as shipped; the analysis continues on the float model it was made from";
}

void addShippedFindings(LintReport& report, const OperatorFormLint& shipped) {
    std::vector<Finding> merged;
    for (const Finding& f : shipped.findings)
        if (std::none_of(report.findings.begin(), report.findings.end(),
                         [&](const Finding& g) { return sameFinding(f, g); }))
            merged.push_back(f);
    // The report is sorted errors first: the shipped file's errors go before the float import's.
    report.findings.insert(report.findings.begin(), merged.begin(), merged.end());
}

}  // namespace ql
