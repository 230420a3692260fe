#include "ui/engine/engine_run.h"

#include <algorithm>

#include "core/engine/engine_mismatches.h"
#include "core/engine/layer_info_reader.h"
#include "core/engine/profile_reader.h"
#include "ui/engine/engine_files.h"

namespace ql::ui {

namespace {

Result<EngineReport> readEngine(const EngineFiles& files) {
    QL_ASSIGN_OR_RETURN(EngineReport report, readLayerInfo(files.layers.toStdString(), "layer information"));
    if (files.profile.isEmpty()) return report;
    const std::string profile = files.profile.toStdString();
    QL_ASSIGN_OR_RETURN(const auto entries, readProfile(profile, "profile"));
    QL_RETURN_IF_ERROR(applyProfile(report, entries, "profile " + profile));
    report.profileFile = profile;
    return report;
}

std::vector<int> runIndex(const EngineAnalysis& analysis, size_t nodeCount) {
    std::vector<int> index(nodeCount, -1);
    for (size_t i = 0; i < analysis.nodes.size(); ++i)
        index[static_cast<size_t>(analysis.nodes[i].node)] = static_cast<int>(i);
    return index;
}

}  // namespace

const NodeRun* EngineRun::run(NodeId node) const {
    if (node < 0 || static_cast<size_t>(node) >= runOfNode.size() || runOfNode[static_cast<size_t>(node)] < 0)
        return nullptr;
    return &analysis.nodes[static_cast<size_t>(runOfNode[static_cast<size_t>(node)])];
}

std::optional<size_t> EngineRun::mainLayer(NodeId node) const {
    const NodeRun* nodeRun = run(node);
    if (!nodeRun) return std::nullopt;
    for (size_t layer : nodeRun->layers)
        if (!report->layers[layer].isReformat()) return layer;
    return nodeRun->layers.empty() ? std::nullopt : std::optional<size_t>(nodeRun->layers.front());
}

std::vector<const PrecisionMismatch*> EngineRun::mismatchesOf(NodeId node) const {
    std::vector<const PrecisionMismatch*> found;
    for (const PrecisionMismatch& mismatch : analysis.mismatches)
        if (mismatch.node == node) found.push_back(&mismatch);
    return found;
}

NodeId EngineRun::nodeOfLayer(size_t layer) const {
    if (layer >= mapping.layers.size()) return kNoId;
    const LayerMapping& mapped = mapping.layers[layer];
    for (NodeId node : mapped.nodes)
        if (run(node)) return node;
    return mapped.feeds ? nodeOfLayer(*mapped.feeds) : kNoId;
}

EngineLoad loadEngineRun(const QStringList& paths, const std::shared_ptr<const Model>& model,
                         const PlannedPrecisions& planned) {
    EngineLoad load;
    auto files = classifyEngineFiles(paths);
    if (!files) {
        load.error = QString::fromStdString(files.status().message());
        return load;
    }
    auto report = readEngine(*files);
    if (!report) {
        load.error = QString::fromStdString(report.status().message());
        return load;
    }
    auto run = std::make_shared<EngineRun>();
    run->layersPath = files->layers;
    run->profilePath = files->profile;
    run->report = std::make_shared<const EngineReport>(std::move(report).value());
    const Graph* graph = model ? &model->graph() : nullptr;
    run->mapping = mapEngineToModel(*run->report, graph);
    run->analysis = analyzeEngine(*run->report, run->mapping, graph, graph ? &planned : nullptr);
    if (graph) run->coverage = mappingCoverage(*run->report, run->mapping, *graph);
    run->runOfNode = runIndex(run->analysis, graph ? graph->nodes().size() : 0);
    load.run = std::move(run);
    return load;
}

std::shared_ptr<const EngineRun> replanEngineRun(const EngineRun& run, const Graph& graph,
                                                 const PlannedPrecisions& planned) {
    auto replanned = std::make_shared<EngineRun>(run);
    replanned->analysis.mismatches = findMismatches(*run.report, run.mapping, run.analysis, graph, planned);
    return replanned;
}

}  // namespace ql::ui
