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

PlannedPrecisions plannedFromPlan(const Graph& graph, const PrecisionPlan& plan, const LintReport& lint) {
    PlannedPrecisions planned(graph.nodes().size());
    for (const Node& node : graph.nodes())
        planned[static_cast<size_t>(node.id)] =
            PlannedNode{plan.requested(node.id), plan.effective(node.id), plan.reason(node.id), {}};
    for (const Finding& finding : lint.findings)
        if (finding.node >= 0 && static_cast<size_t>(finding.node) < planned.size())
            planned[static_cast<size_t>(finding.node)]->findings.push_back(finding);
    return planned;
}

Result<PlannedPrecisions> plannedPrecisions(const Graph& graph, const std::string& modelPath,
                                            const std::string& planPath, TrtVersion version) {
    QL_ASSIGN_OR_RETURN(auto model, Model::load(modelPath));
    QL_ASSIGN_OR_RETURN(CarriedModel carried, carriedModel(std::move(model)));
    const Graph& fp32 = carried.model->graph();
    QL_ASSIGN_OR_RETURN(PrecisionPlan requested, requestedPlan(fp32, carried, planPath));
    // As the window decides its plan: the TensorRT rules applied, then the lint of the effective plan.
    const PrecisionPlan effective = effectivePlan(fp32, std::move(requested), version, Precision::Fp16, nullptr);
    const PlannedPrecisions ofFp32 = plannedFromPlan(fp32, effective, lint(fp32, effective, {version}));
    // The FP32 form's nodes matched back to the model as given (a Q/DQ model's Q/DQ nodes have none).
    PlannedPrecisions planned(graph.nodes().size());
    for (const Node& node : fp32.nodes())
        if (const auto id = graph.findNode(node.name))
            planned[static_cast<size_t>(*id)] = ofFp32[static_cast<size_t>(node.id)];
    return planned;
}

}  // namespace ql
