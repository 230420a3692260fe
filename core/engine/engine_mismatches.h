#pragma once
// The differences between the plan's effective precisions and what the engine ran (engine_analysis.h), each with
// its reason and, where one exists, the lint rule that explains it.
#include <vector>

#include "core/engine/engine_analysis.h"

namespace ql {

// Uses analysis.layerPrecisions and analysis.nodes; in graph order, a node's reformat after its precision.
std::vector<PrecisionMismatch> findMismatches(const EngineReport& report, const EngineMapping& mapping,
                                              const EngineAnalysis& analysis, const Graph& graph,
                                              const PlannedPrecisions& planned);

}  // namespace ql
