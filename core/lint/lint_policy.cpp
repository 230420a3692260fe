#include "core/lint/lint_policy.h"

#include "core/lint/linter.h"
#include "core/quant/default_placement.h"

namespace ql {

namespace {

// An epilogue planned INT8 runs inside its producer's kernel (Conv+Clip): when the producer falls back, so does it.
// Graph order lets a chain (Conv -> BatchNormalization -> Relu) follow its head.
void followFusedProducers(const Graph& graph, PrecisionPlan& plan) {
    for (const Node& node : graph.nodes()) {
        if (plan.effective(node.id) != Precision::Int8) continue;
        const NodeId producer = fusedProducer(graph, node);
        if (producer == kNoId || plan.requested(producer) != Precision::Int8) continue;
        const Precision precision = plan.effective(producer);
        if (precision == Precision::Int8) continue;
        plan.setEffective(node.id, precision,
                          "fused into " + graph.node(producer).name + ", which runs " + upperPrecisionName(precision) +
                              ": the activation runs with it");
    }
}

}  // namespace

void LintPolicy::apply(const Graph& graph, PrecisionPlan& plan) const {
    const LintReport report = lint(graph, plan, {mVersion});
    for (const Finding* f : fallbackFindings(report.findings)) {
        if (plan.effective(f->node) != Precision::Int8) continue;
        plan.setEffective(f->node, mFallback, f->ruleId + ": " + f->message);
    }
    followFusedProducers(graph, plan);
}

}  // namespace ql
