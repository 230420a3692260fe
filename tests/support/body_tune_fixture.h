#pragma once
// A tune inside If/Loop bodies, for the tests of core/quant/tuning_units.h and of the window's tune report:
// convBranchesModel (control_flow_model.h) with the default placement and its Loop's body and the If's else_branch (the
// branch these samples take) planned as the default placement plans them, minmax ranges with the Loop body's state
// (l1's input) clipped to a twentieth of its range, so that refine/body/l1 is the layer whose INT8 costs the outputs
// most.
#include <memory>
#include <string>

#include "core/data/data_source.h"
#include "core/model/model.h"
#include "core/quant/tuning.h"

namespace ql::test {

inline constexpr int64_t kBodyTuneSamples = 24;

std::unique_ptr<DataSource> bodyTuneSamples(const Graph& graph);
PrecisionPlan bodiesPlanned(const Graph& graph);
CalibrationResult plantedInBody(const Graph& graph);
// The tune of that plan to `target` on those samples (a subset of 8).
Result<TuneReport> tuneBodies(const Graph& graph, const std::string& target);

}  // namespace ql::test
