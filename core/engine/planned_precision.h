#pragma once
// What QuantLens predicts the engine runs, per node of the model given to `engine`: the effective precision of the
// plan (effective_plan.h: the requested precisions with TensorRT's INT8 fallbacks applied) and the lint findings
// that may explain a difference. The plan is, in order: PLAN.json; the precisions a Q/DQ or FP16-island model
// carries (carried_model.h, e.g. a QuantLens export); the default INT8 placement. The plan and the lint work on the
// FP32 form of the model, whose node names are the model's own, so they are matched back by name.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/common/status.h"
#include "core/lint/finding.h"
#include "core/lint/trt_version.h"
#include "core/model/graph.h"
#include "core/quant/precision_plan.h"

namespace ql {

struct LintReport;

struct PlannedNode {
    Precision requested = Precision::Fp32;
    Precision effective = Precision::Fp32;
    std::string reason;             // why effective differs from requested ("rule-id: message"), or empty
    std::vector<Finding> findings;  // the lint findings on the node
};

// One entry per node of `graph` (the model as given); nullopt for nodes the FP32 form does not have (Q/DQ).
using PlannedPrecisions = std::vector<std::optional<PlannedNode>>;

// The one way the window and the CLI turn a plan into what the engine was planned to run (so both count the same
// differences): `plan` with its effective precisions decided (effectivePlan, or the window's TensorRT rules) and the
// lint findings on it, per node of `graph`.
PlannedPrecisions plannedFromPlan(const Graph& graph, const PrecisionPlan& plan, const LintReport& lint);

// `modelPath`: the file `graph` was loaded from (loaded again for its FP32 form); `planPath` empty: no PLAN.json.
Result<PlannedPrecisions> plannedPrecisions(const Graph& graph, const std::string& modelPath,
                                            const std::string& planPath, TrtVersion version);

}  // namespace ql
