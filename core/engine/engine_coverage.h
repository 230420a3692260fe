#pragma once
// How well an engine report fits the model it is read against, and the count of its differences from the plan: one
// function each, so the window and `quantlens-cli engine` say the same. A report of another model maps next to
// nothing; its "0 differences from the plan" would read as a perfect build, so below kMinMappedShare of the compute
// nodes or of the engine's layers both say the report is probably of another model (the CLI exits 2 without
// --force).
#include <cstddef>
#include <string>
#include <vector>

#include "core/engine/engine_analysis.h"

namespace ql {

inline constexpr double kMinMappedShare = 0.5;

struct MappingCoverage {
    size_t computeNodes = 0, mappedNodes = 0;  // the model's compute nodes (computeNodes()), those in some layer
    size_t layers = 0, mappedLayers = 0;       // the engine's non-reformat layers, those naming a node of the model
    double nodeShare() const;                  // 1 when there is nothing to map
    double layerShare() const;
    bool likelyOtherModel() const;
};

// `mapping`: of `report` onto `graph` (mapEngineToModel).
MappingCoverage mappingCoverage(const EngineReport& report, const EngineMapping& mapping, const Graph& graph);

// "maps 2 of 31 compute nodes (6%) and 1 of 10 engine layers (10%): the report is probably of another model ...";
// empty when the report fits.
std::string otherModelWarning(const MappingCoverage& coverage);

struct PlanDifferences {
    size_t precision = 0;  // compute nodes the engine ran in another precision than planned
    size_t reformat = 0;   // Q/DQ TensorRT left as a reformat
    size_t total() const { return precision + reformat; }
};

// The differences from the plan, as the window's status bar and engine dock and the CLI's table and JSON count them.
PlanDifferences countPlanDifferences(const std::vector<PrecisionMismatch>& mismatches);

}  // namespace ql
