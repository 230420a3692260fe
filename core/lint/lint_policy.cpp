#include "core/lint/lint_policy.h"

#include "core/lint/linter.h"
#include "core/lint/rules/rules.h"
#include "core/model/subgraph_model.h"
#include "core/quant/body_calibration.h"
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

void Fp16KernelFallback::apply(const Graph& graph, PrecisionPlan& plan) const {
    for (const Node& node : graph.nodes())
        if (plan.requested(node.id) == Precision::Int8 && plan.effective(node.id) == Precision::Fp16 &&
            rules::lacksStrongFp16Kernel(mVersion, node))
            plan.setEffective(node.id, Precision::Fp32,
                              plan.explanation(node.id) +
                                  "; FP32, not FP16: TensorRT 11.2 has no strongly typed FP16 kernel for a grouped "
                                  "convolution (trt-strong-fp16-grouped-conv)");
}

void TrtPolicies::apply(const Graph& graph, PrecisionPlan& plan) const {
    plan.applyPolicies(graph, list());
    for (BodyPlan& body : plan.bodies()) {
        const std::optional<NodeId> node = graph.findNode(body.node);
        auto model = node ? buildSubgraphModel(graph, graph.node(*node), body.attribute, OuterInitializers::Copied)
                          : Result<SubgraphModel>(notFound("no node '" + body.node + "'"));
        if (!model) {
            for (NodeId id = 0; id < static_cast<NodeId>(body.plan.size()); ++id)
                body.plan.setEffective(id, Precision::Fp32, "the body could not be read: " + model.status().message());
            continue;
        }
        std::optional<CalibrationResult> calibration;
        if (mCalibration) calibration = bodyCalibration(*mCalibration, model->graph, body.node, body.attribute);
        const TrtPolicies policies(mVersion, mFallback, calibration ? &*calibration : nullptr, mTyping);
        policies.apply(model->graph, body.plan);
    }
}

}  // namespace ql
