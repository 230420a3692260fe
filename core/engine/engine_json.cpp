// engineToJson: the JSON of `quantlens-cli engine` (part of the CLI contract; docs/engine-reports.md).
#include <nlohmann/json.hpp>

#include "core/engine/engine_coverage.h"
#include "core/engine/engine_view.h"

namespace ql {

namespace {

using nlohmann::json;

json precisionJson(EnginePrecision precision) {
    return precision == EnginePrecision::Unknown ? json(nullptr) : json(enginePrecisionName(precision));
}

json optionalJson(const std::optional<double>& value) {
    return value ? json(*value) : json(nullptr);
}

json shareJson(const std::optional<double>& time, const std::optional<double>& total) {
    if (!time || !total || *total <= 0.0) return nullptr;
    return *time / *total;
}

json stringOrNull(const std::string& text) {
    return text.empty() ? json(nullptr) : json(text);
}

json reformatJson(const EngineView& view, size_t index) {
    const EngineLayer& layer = view.report.layers[index];
    return {{"name", layer.name},
            {"time_ms", optionalJson(layer.timeMs)},
            {"from", precisionJson(layer.inputs.empty() ? EnginePrecision::Unknown : layer.inputs.front().precision)},
            {"to", precisionJson(view.analysis.layerPrecisions[index])}};
}

json layerJson(const EngineView& view, size_t index) {
    const EngineLayer& layer = view.report.layers[index];
    const LayerMapping& mapping = view.mapping.layers[index];
    json nodes = json::array();
    for (NodeId node : mapping.nodes) nodes.push_back(view.graph->node(node).name);
    json reformats = json::array();
    for (size_t r : view.analysis.reformatsOf[index]) reformats.push_back(reformatJson(view, r));
    return {{"name", layer.name},
            {"type", stringOrNull(layer.type)},
            {"precision", precisionJson(view.analysis.layerPrecisions[index])},
            {"time_ms", optionalJson(layer.timeMs)},
            {"share", shareJson(layer.timeMs, view.analysis.totalTimeMs)},
            {"tactic", stringOrNull(layer.tactic)},
            {"onnx_nodes", nodes},
            {"mapped_by", stringOrNull(mappingSourceName(mapping.source))},
            {"reformat", layer.isReformat()},
            {"feeds", mapping.feeds ? json(view.report.layers[*mapping.feeds].name) : json(nullptr)},
            {"reformats", reformats}};
}

json nodeJson(const EngineView& view, const NodeRun& run) {
    const Node& node = view.graph->node(run.node);
    json layers = json::array();
    for (size_t i : run.layers) layers.push_back(view.report.layers[i].name);
    const auto& plan = view.planned ? (*view.planned)[static_cast<size_t>(run.node)] : std::nullopt;
    return {{"node", node.name},
            {"op", node.opType},
            {"layers", layers},
            {"precision", precisionJson(run.precision)},
            {"planned", plan ? json(precisionName(plan->effective)) : json(nullptr)},
            {"time_ms", optionalJson(run.timeMs)},
            {"share", shareJson(run.timeMs, view.analysis.totalTimeMs)},
            {"tactic", stringOrNull(run.tactic)},
            {"macs", node.cost.macs}};
}

json mismatchJson(const EngineView& view, const PrecisionMismatch& m) {
    return {{"node", view.graph->node(m.node).name},
            {"layer", view.report.layers[m.layer].name},
            {"kind", m.kind == MismatchKind::Reformat ? "reformat" : "precision"},
            {"planned", m.planned},
            {"actual", m.actual},
            {"reason", m.reason},
            {"rule", stringOrNull(m.rule)}};
}

json coverageJson(const Int8Coverage& coverage, bool withModel) {
    return {{"by_time", optionalJson(coverage.byTime)},
            {"by_macs", optionalJson(coverage.byMacs)},
            {"int8_time_ms", coverage.int8TimeMs},
            {"int8_macs", withModel ? json(coverage.int8Macs) : json(nullptr)},
            {"total_macs", withModel ? json(coverage.totalMacs) : json(nullptr)}};
}

json comparisonJson(const EngineBaselineView& baseline) {
    const EngineComparison& c = baseline.comparison;
    json rows = json::array();
    for (const TimeDelta& row : c.rows)
        rows.push_back({{c.byNode ? "node" : "layer", row.name},
                        {"precision", precisionJson(row.precision)},
                        {"baseline_precision", precisionJson(row.baselinePrecision)},
                        {"time_ms", optionalJson(row.timeMs)},
                        {"baseline_time_ms", optionalJson(row.baselineTimeMs)},
                        {"delta_ms", optionalJson(row.deltaMs())}});
    std::optional<double> delta;
    if (c.totalTimeMs && c.baselineTotalTimeMs) delta = *c.totalTimeMs - *c.baselineTotalTimeMs;
    return {{"baseline_layers_file", baseline.report.layersFile},
            {"baseline_profile_file", stringOrNull(baseline.report.profileFile)},
            {"by", c.byNode ? "node" : "layer"},
            {"total_time_ms", optionalJson(c.totalTimeMs)},
            {"baseline_total_time_ms", optionalJson(c.baselineTotalTimeMs)},
            {"delta_ms", optionalJson(delta)},
            {"rows", rows}};
}

json mappingJson(const EngineView& view) {
    const MappingCoverage c = mappingCoverage(view.report, view.mapping, *view.graph);
    return {{"compute_nodes", c.computeNodes},
            {"mapped_nodes", c.mappedNodes},
            {"node_share", c.nodeShare()},
            {"layers", c.layers},
            {"mapped_layers", c.mappedLayers},
            {"layer_share", c.layerShare()},
            {"likely_other_model", c.likelyOtherModel()}};
}

json differencesJson(const EngineView& view) {
    const PlanDifferences d = countPlanDifferences(view.analysis.mismatches);
    return {{"total", d.total()}, {"precision", d.precision}, {"reformat", d.reformat}};
}

void addRunFiles(const EngineView& view, json& out) {
    if (view.timing) {
        out["timing"] = {{"iterations", view.timing->iterations},
                         {"median_compute_ms", view.timing->medianComputeMs},
                         {"mean_compute_ms", view.timing->meanComputeMs},
                         {"median_latency_ms", optionalJson(view.timing->medianLatencyMs)}};
    }
    if (view.metadata) {
        json metadata = json::object();
        for (const auto& [key, value] : *view.metadata) metadata[key] = value;
        out["metadata"] = metadata;
    }
}

}  // namespace

json engineToJson(const EngineView& view) {
    json out;
    out["layers_file"] = view.report.layersFile;
    out["profile_file"] = stringOrNull(view.report.profileFile);
    out["schema"] = layerInfoSchemaName(view.report.schema);
    json layers = json::array();
    for (size_t i = 0; i < view.report.layers.size(); ++i) layers.push_back(layerJson(view, i));
    out["layers"] = layers;
    out["total_time_ms"] = optionalJson(view.analysis.totalTimeMs);
    out["reformat_time_ms"] = view.report.hasProfile() ? json(view.analysis.reformatTimeMs) : json(nullptr);
    json nodes = json::array();
    json mismatches = json::array();
    json unmappedNodes = json::array();
    json unmappedLayers = json::array();
    if (view.graph) {
        for (const NodeRun& run : view.analysis.nodes) nodes.push_back(nodeJson(view, run));
        for (const PrecisionMismatch& m : view.analysis.mismatches) mismatches.push_back(mismatchJson(view, m));
        for (NodeId node : view.mapping.unmappedNodes) unmappedNodes.push_back(view.graph->node(node).name);
        for (size_t i : view.mapping.unmappedLayers) unmappedLayers.push_back(view.report.layers[i].name);
    }
    out["nodes"] = nodes;
    out["mismatches"] = mismatches;
    out["unmapped_nodes"] = unmappedNodes;
    out["unmapped_layers"] = unmappedLayers;
    out["mapping"] = view.graph ? mappingJson(view) : json(nullptr);
    out["differences"] = view.graph ? differencesJson(view) : json(nullptr);
    json top = json::array();
    for (size_t i : view.analysis.topLayers) {
        const EngineLayer& layer = view.report.layers[i];
        top.push_back({{"name", layer.name},
                       {"type", stringOrNull(layer.type)},
                       {"precision", precisionJson(view.analysis.layerPrecisions[i])},
                       {"time_ms", optionalJson(layer.timeMs)},
                       {"share", shareJson(layer.timeMs, view.analysis.totalTimeMs)}});
    }
    out["top_layers"] = top;
    out["int8_coverage"] = coverageJson(view.analysis.coverage, view.graph != nullptr);
    addRunFiles(view, out);
    if (view.baseline) out["comparison"] = comparisonJson(*view.baseline);
    return out;
}

}  // namespace ql
