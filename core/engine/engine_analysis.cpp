#include "core/engine/engine_analysis.h"

#include <algorithm>
#include <numeric>

#include "core/engine/engine_mismatches.h"
#include "core/engine/layer_precision.h"

namespace ql {

namespace {

std::vector<std::vector<size_t>> reformatsByLayer(const EngineMapping& mapping) {
    std::vector<std::vector<size_t>> reformats(mapping.layers.size());
    for (size_t i = 0; i < mapping.layers.size(); ++i)
        if (const auto feeds = mapping.layers[i].feeds) reformats[*feeds].push_back(i);
    return reformats;
}

// The compute nodes of each layer, which share its time.
std::vector<size_t> computeNodeCounts(const EngineMapping& mapping, const std::vector<bool>& compute) {
    std::vector<size_t> counts(mapping.layers.size(), 0);
    for (size_t i = 0; i < mapping.layers.size(); ++i)
        for (NodeId node : mapping.layers[i].nodes) counts[i] += compute[static_cast<size_t>(node)] ? 1 : 0;
    return counts;
}

NodeRun nodeRun(NodeId node, const EngineReport& report, const EngineMapping& mapping,
                const std::vector<EnginePrecision>& precisions, const std::vector<size_t>& counts) {
    NodeRun run;
    run.node = node;
    run.layers = mapping.nodeLayers[static_cast<size_t>(node)];
    // The first layer that computes (not a reformat) says how the node ran.
    const auto main =
        std::find_if(run.layers.begin(), run.layers.end(), [&](size_t i) { return !report.layers[i].isReformat(); });
    const size_t first = main != run.layers.end() ? *main : run.layers.front();
    run.precision = precisions[first];
    run.tactic = report.layers[first].tactic;
    if (report.hasProfile()) {
        double time = 0.0;
        for (size_t i : run.layers) time += report.layers[i].timeMs.value_or(0.0) / static_cast<double>(counts[i]);
        run.timeMs = time;
    }
    return run;
}

std::vector<size_t> slowestLayers(const EngineReport& report) {
    std::vector<size_t> order(report.layers.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return report.layers[a].timeMs.value_or(0.0) > report.layers[b].timeMs.value_or(0.0);
    });
    std::erase_if(order, [&](size_t i) { return report.layers[i].timeMs.value_or(0.0) <= 0.0; });
    if (order.size() > kTopLayers) order.resize(kTopLayers);
    return order;
}

Int8Coverage int8Coverage(const EngineReport& report, const EngineAnalysis& analysis, const Graph* graph,
                          const std::vector<bool>& compute) {
    Int8Coverage coverage;
    for (size_t i = 0; i < report.layers.size(); ++i)
        if (!report.layers[i].isReformat() && analysis.layerPrecisions[i] == EnginePrecision::Int8)
            coverage.int8TimeMs += report.layers[i].timeMs.value_or(0.0);
    if (analysis.totalTimeMs && *analysis.totalTimeMs > 0.0)
        coverage.byTime = coverage.int8TimeMs / *analysis.totalTimeMs;
    if (!graph) return coverage;
    for (const Node& node : graph->nodes())
        if (compute[static_cast<size_t>(node.id)]) coverage.totalMacs += node.cost.macs;
    for (const NodeRun& run : analysis.nodes)
        if (run.precision == EnginePrecision::Int8) coverage.int8Macs += graph->node(run.node).cost.macs;
    if (coverage.totalMacs > 0)
        coverage.byMacs = static_cast<double>(coverage.int8Macs) / static_cast<double>(coverage.totalMacs);
    return coverage;
}

}  // namespace

bool EngineAnalysis::hasPlannedInt8NotRun() const {
    return std::any_of(mismatches.begin(), mismatches.end(),
                       [](const PrecisionMismatch& m) { return m.plannedInt8NotRun(); });
}

EngineAnalysis analyzeEngine(const EngineReport& report, const EngineMapping& mapping, const Graph* graph,
                             const PlannedPrecisions* planned) {
    EngineAnalysis analysis;
    for (const EngineLayer& layer : report.layers) {
        analysis.layerPrecisions.push_back(layerPrecision(layer));
        if (layer.isReformat()) analysis.reformatTimeMs += layer.timeMs.value_or(0.0);
    }
    analysis.reformatsOf = reformatsByLayer(mapping);
    analysis.totalTimeMs = report.totalTimeMs();
    analysis.topLayers = slowestLayers(report);
    std::vector<bool> compute;
    if (graph) {
        compute = computeNodes(*graph);
        const std::vector<size_t> counts = computeNodeCounts(mapping, compute);
        for (const Node& node : graph->nodes())
            if (compute[static_cast<size_t>(node.id)] && !mapping.nodeLayers[static_cast<size_t>(node.id)].empty())
                analysis.nodes.push_back(nodeRun(node.id, report, mapping, analysis.layerPrecisions, counts));
        if (planned) analysis.mismatches = findMismatches(report, mapping, analysis, *graph, *planned);
    }
    analysis.coverage = int8Coverage(report, analysis, graph, compute);
    return analysis;
}

}  // namespace ql
