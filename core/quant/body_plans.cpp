#include "core/quant/body_plans.h"

namespace ql {

const PrecisionPlan* bodyPlan(const PrecisionPlan& plan, const BodyPath& path) {
    const PrecisionPlan* at = &plan;
    for (const BodyStep& step : path)
        if (!(at = at->body(step.owner, step.attribute))) return nullptr;
    return path.empty() ? nullptr : at;
}

PrecisionPlan* bodyPlan(PrecisionPlan& plan, const BodyPath& path) {
    return const_cast<PrecisionPlan*>(bodyPlan(static_cast<const PrecisionPlan&>(plan), path));
}

PrecisionPlan* ensureBodyPlan(PrecisionPlan& plan, const std::vector<BodyGraph>& bodies, const BodyPath& path) {
    PrecisionPlan* at = &plan;
    BodyPath prefix;
    for (const BodyStep& step : path) {
        prefix.push_back(step);
        const BodyGraph* body = findBodyGraph(bodies, prefix);
        if (!body) return nullptr;
        at = &at->ensureBody(step.owner, step.attribute, body->body.graph);
    }
    return path.empty() ? nullptr : at;
}

}  // namespace ql
