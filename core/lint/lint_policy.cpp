#include "core/lint/lint_policy.h"

#include "core/lint/linter.h"

namespace ql {

void LintPolicy::apply(const Graph& graph, PrecisionPlan& plan) const {
    const LintReport report = lint(graph, plan, {mVersion});
    for (const Finding* f : fallbackFindings(report.findings)) {
        if (plan.effective(f->node) != Precision::Int8) continue;
        plan.setEffective(f->node, mFallback, f->ruleId + ": " + f->message);
    }
}

}  // namespace ql
