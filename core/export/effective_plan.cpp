#include "core/export/effective_plan.h"

#include "core/lint/lint_policy.h"
#include "core/quant/default_placement.h"

namespace ql {

Result<PrecisionPlan> effectivePlan(const Graph& graph, const std::string& planPath, TrtVersion version,
                                    Precision fallback) {
    PrecisionPlan plan;
    if (planPath.empty()) {
        plan = defaultPrecisionPlan(graph);
    } else {
        QL_ASSIGN_OR_RETURN(plan, PrecisionPlan::load(graph, planPath));
    }
    const LintPolicy policy(version, fallback);
    const PrecisionPolicy* policies[] = {&policy};
    plan.applyPolicies(graph, policies);
    return plan;
}

Result<TrtVersion> trtVersionOption(const std::string& text) {
    if (auto version = parseTrtVersion(text)) return *version;
    return invalidArgument("--trt " + text + ": expected 8.6 or 10");
}

}  // namespace ql
