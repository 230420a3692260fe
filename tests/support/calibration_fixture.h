#pragma once
// Calibrations for tests that need ranges but not a calibration run.
#include <map>
#include <string>

#include "core/model/graph.h"
#include "core/quant/calibration.h"

namespace ql::test {

// Every tensor that is not an initializer gets the range [-amax, amax] (as its amax and its observed extremes):
// its entry in `amax`, else `fallback`. The tensors nodes produce inside If/Loop/Scan bodies too, as
// subgraphActivations named by their paths ("If_0/then_branch/x"), which are also their keys in `amax`.
CalibrationResult uniformCalibration(const Graph& graph, const std::map<std::string, float>& amax = {},
                                     float fallback = 2.0f);

}  // namespace ql::test
