#pragma once
// The plan of a body at a path (body_graphs.h) inside a model's plan (PrecisionPlan::bodies, nested ones inside).
#include "core/model/body_graphs.h"
#include "core/quant/precision_plan.h"

namespace ql {

// The plan of the body at `path` inside `plan`, or null when that body (or one around it) has none, or `path` is
// empty.
const PrecisionPlan* bodyPlan(const PrecisionPlan& plan, const BodyPath& path);
PrecisionPlan* bodyPlan(PrecisionPlan& plan, const BodyPath& path);
// The plan of the body at `path`, added all FP32 (with the bodies around it) where there is none; null when `bodies`
// has no such body.
PrecisionPlan* ensureBodyPlan(PrecisionPlan& plan, const std::vector<BodyGraph>& bodies, const BodyPath& path);

}  // namespace ql
