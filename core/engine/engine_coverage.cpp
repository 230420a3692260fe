#include "core/engine/engine_coverage.h"

#include <cmath>

namespace ql {

namespace {

double share(size_t part, size_t whole) {
    return whole == 0 ? 1.0 : static_cast<double>(part) / static_cast<double>(whole);
}

std::string percent(double value) {
    return std::to_string(static_cast<int>(std::lround(100.0 * value))) + "%";
}

}  // namespace

double MappingCoverage::nodeShare() const {
    return share(mappedNodes, computeNodes);
}

double MappingCoverage::layerShare() const {
    return share(mappedLayers, layers);
}

bool MappingCoverage::likelyOtherModel() const {
    return nodeShare() < kMinMappedShare || layerShare() < kMinMappedShare;
}

MappingCoverage mappingCoverage(const EngineReport& report, const EngineMapping& mapping, const Graph& graph) {
    MappingCoverage coverage;
    for (size_t i = 0; i < report.layers.size(); ++i)
        if (!report.layers[i].isReformat()) ++coverage.layers;
    coverage.mappedLayers = coverage.layers - mapping.unmappedLayers.size();
    for (const bool compute : computeNodes(graph)) coverage.computeNodes += compute ? 1 : 0;
    coverage.mappedNodes = coverage.computeNodes - mapping.unmappedNodes.size();
    return coverage;
}

std::string otherModelWarning(const MappingCoverage& c) {
    if (!c.likelyOtherModel()) return {};
    return "maps " + std::to_string(c.mappedNodes) + " of " + std::to_string(c.computeNodes) + " compute nodes (" +
           percent(c.nodeShare()) + ") and " + std::to_string(c.mappedLayers) + " of " + std::to_string(c.layers) +
           " engine layers (" + percent(c.layerShare()) +
           "): the report is probably of another model (or of another export of it); build the engine from this "
           "model, or open the model the report was built from";
}

PlanDifferences countPlanDifferences(const std::vector<PrecisionMismatch>& mismatches) {
    PlanDifferences differences;
    for (const PrecisionMismatch& m : mismatches)
        (m.kind == MismatchKind::Reformat ? differences.reformat : differences.precision) += 1;
    return differences;
}

}  // namespace ql
