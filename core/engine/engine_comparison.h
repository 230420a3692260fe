#pragma once
// Two engines side by side (`engine --baseline`), e.g. FP16 against INT8 or before and after a plan change, as
// TREx's engine comparison but on the ONNX graph: with a model, one row per compute node (its time is its share of
// the layers holding it, engine_analysis.h), so engines whose fusions differ still line up; without one, one row
// per layer name found in either engine.
#include <optional>
#include <string>
#include <vector>

#include "core/engine/engine_analysis.h"

namespace ql {

struct TimeDelta {
    NodeId node = kNoId;                                           // kNoId when comparing by layer name
    std::string name;                                              // the node's name, or the layer's
    EnginePrecision precision = EnginePrecision::Unknown;          // in the engine
    EnginePrecision baselinePrecision = EnginePrecision::Unknown;  // in the baseline
    std::optional<double> timeMs;                                  // nullopt: absent, or no profile
    std::optional<double> baselineTimeMs;
    std::optional<double> deltaMs() const;  // time - baseline time, when both are known
};

struct EngineComparison {
    bool byNode = false;
    std::optional<double> totalTimeMs;
    std::optional<double> baselineTotalTimeMs;
    std::vector<TimeDelta> rows;  // largest |delta| first, then rows without a delta in graph or engine order
};

struct AnalysedEngine {
    const EngineReport& report;
    const EngineAnalysis& analysis;
};

EngineComparison compareEngines(const AnalysedEngine& engine, const AnalysedEngine& baseline, const Graph* graph);

}  // namespace ql
