#pragma once
// Everything `quantlens-cli engine` reports, and its two forms: the JSON of the CLI contract and the text table
// (docs/engine-reports.md lists the JSON keys). Null pointers: not given (no model, no plan, no baseline, ...).
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>

#include "core/engine/engine_analysis.h"
#include "core/engine/engine_comparison.h"
#include "core/engine/engine_mapping.h"
#include "core/engine/engine_report.h"
#include "core/engine/run_metadata_reader.h"

namespace ql {

struct EngineBaselineView {
    const EngineReport& report;
    const EngineComparison& comparison;
};

struct EngineView {
    const EngineReport& report;
    const EngineMapping& mapping;
    const EngineAnalysis& analysis;
    const Graph* graph = nullptr;
    const PlannedPrecisions* planned = nullptr;
    const EngineBaselineView* baseline = nullptr;
    const TimingSummary* timing = nullptr;
    const RunMetadata* metadata = nullptr;
};

nlohmann::json engineToJson(const EngineView& view);
std::string engineToText(const EngineView& view);

}  // namespace ql
