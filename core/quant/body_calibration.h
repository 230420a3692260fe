#pragma once
// The calibration as the body of a control-flow node sees it, for the body's plan (PrecisionPlan::bodies): the
// body's own tensors, which a calibration run observed under "<node>/<attribute>/<tensor>"
// (CalibrationResult::subgraphActivations), by their names in the body, and the values the body reads from the
// enclosing graph (its graph inputs: buildSubgraphModel), by theirs. The tensors of bodies nested in it keep the
// rest of their path, as its subgraphActivations, for the next level down.
#include <string>

#include "core/model/graph.h"
#include "core/quant/calibration.h"

namespace ql {

// `body`: the body's graph; `node` and `attribute`: where it is in `outer`'s graph.
CalibrationResult bodyCalibration(const CalibrationResult& outer, const Graph& body, const std::string& node,
                                  const std::string& attribute);

}  // namespace ql
