#include "core/engine/engine_comparison.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace ql {

namespace {

std::vector<TimeDelta> rowsByNode(const AnalysedEngine& engine, const AnalysedEngine& baseline, const Graph& graph) {
    std::map<NodeId, TimeDelta> rows;  // graph order
    for (const NodeRun& run : engine.analysis.nodes) {
        TimeDelta& row = rows[run.node];
        row.node = run.node;
        row.name = graph.node(run.node).name;
        row.precision = run.precision;
        row.timeMs = run.timeMs;
    }
    for (const NodeRun& run : baseline.analysis.nodes) {
        TimeDelta& row = rows[run.node];
        row.node = run.node;
        row.name = graph.node(run.node).name;
        row.baselinePrecision = run.precision;
        row.baselineTimeMs = run.timeMs;
    }
    std::vector<TimeDelta> list;
    for (auto& [id, row] : rows) list.push_back(std::move(row));
    return list;
}

std::vector<TimeDelta> rowsByLayerName(const AnalysedEngine& engine, const AnalysedEngine& baseline) {
    std::vector<TimeDelta> rows;
    std::map<std::string, size_t> index;
    for (size_t i = 0; i < engine.report.layers.size(); ++i) {
        const EngineLayer& layer = engine.report.layers[i];
        if (!index.emplace(layer.name, rows.size()).second) continue;
        rows.push_back({kNoId, layer.name, engine.analysis.layerPrecisions[i], EnginePrecision::Unknown, layer.timeMs,
                        std::nullopt});
    }
    for (size_t i = 0; i < baseline.report.layers.size(); ++i) {
        const EngineLayer& layer = baseline.report.layers[i];
        auto [it, added] = index.emplace(layer.name, rows.size());
        if (added) rows.push_back({kNoId, layer.name, EnginePrecision::Unknown, EnginePrecision::Unknown, {}, {}});
        rows[it->second].baselinePrecision = baseline.analysis.layerPrecisions[i];
        rows[it->second].baselineTimeMs = layer.timeMs;
    }
    return rows;
}

}  // namespace

std::optional<double> TimeDelta::deltaMs() const {
    if (!timeMs || !baselineTimeMs) return std::nullopt;
    return *timeMs - *baselineTimeMs;
}

EngineComparison compareEngines(const AnalysedEngine& engine, const AnalysedEngine& baseline, const Graph* graph) {
    EngineComparison comparison;
    comparison.byNode = graph != nullptr;
    comparison.totalTimeMs = engine.analysis.totalTimeMs;
    comparison.baselineTotalTimeMs = baseline.analysis.totalTimeMs;
    comparison.rows = graph ? rowsByNode(engine, baseline, *graph) : rowsByLayerName(engine, baseline);
    std::stable_sort(comparison.rows.begin(), comparison.rows.end(), [](const TimeDelta& a, const TimeDelta& b) {
        const auto da = a.deltaMs();
        const auto db = b.deltaMs();
        if (da.has_value() != db.has_value()) return da.has_value();
        return da && std::abs(*da) > std::abs(*db);
    });
    return comparison;
}

}  // namespace ql
