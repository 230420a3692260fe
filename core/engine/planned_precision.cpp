#include "core/engine/planned_precision.h"

#include "core/export/carried_model.h"
#include "core/export/effective_plan.h"
#include "core/lint/linter.h"
#include "core/quant/default_placement.h"

namespace ql {

namespace {

Result<PrecisionPlan> requestedPlan(const Graph& fp32, const CarriedModel& carried, const std::string& planPath) {
    if (!planPath.empty()) return PrecisionPlan::load(fp32, planPath);
    if (carried.plan) return *carried.plan;
    return defaultPrecisionPlan(fp32);
}

}  // namespace

Result<PlannedPrecisions> plannedPrecisions(const Graph& graph, const std::string& modelPath,
                                            const std::string& planPath, TrtVersion version) {
    QL_ASSIGN_OR_RETURN(auto model, Model::load(modelPath));
    QL_ASSIGN_OR_RETURN(CarriedModel carried, carriedModel(std::move(model)));
    const Graph& fp32 = carried.model->graph();
    QL_ASSIGN_OR_RETURN(PrecisionPlan requested, requestedPlan(fp32, carried, planPath));
    const LintReport lintReport = lint(fp32, requested, {version});
    const PrecisionPlan effective = effectivePlan(fp32, requested, version, Precision::Fp16, nullptr);

    PlannedPrecisions planned(graph.nodes().size());
    for (const Node& node : fp32.nodes()) {
        const auto id = graph.findNode(node.name);
        if (!id) continue;
        planned[static_cast<size_t>(*id)] =
            PlannedNode{requested.requested(node.id), effective.effective(node.id), effective.reason(node.id), {}};
    }
    for (const Finding& finding : lintReport.findings) {
        if (finding.node == kNoId) continue;
        const auto id = graph.findNode(finding.nodeName);
        if (id && planned[static_cast<size_t>(*id)]) planned[static_cast<size_t>(*id)]->findings.push_back(finding);
    }
    return planned;
}

}  // namespace ql
