#include "core/export/effective_plan.h"

#include "core/lint/lint_policy.h"
#include "core/model/body_path.h"
#include "core/model/fp16_form.h"
#include "core/model/subgraph_model.h"
#include "core/quant/default_placement.h"

namespace ql {

Result<PrecisionPlan> effectivePlan(const Graph& graph, const std::string& planPath, TrtVersion version,
                                    Precision fallback, const CalibrationResult* calibration,
                                    std::optional<TrtTyping> typing) {
    PrecisionPlan plan;
    if (planPath.empty()) {
        plan = defaultPrecisionPlan(graph);
    } else {
        QL_ASSIGN_OR_RETURN(plan, PrecisionPlan::load(graph, planPath));
    }
    return effectivePlan(graph, std::move(plan), version, fallback, calibration, typing);
}

PrecisionPlan effectivePlan(const Graph& graph, PrecisionPlan requested, TrtVersion version, Precision fallback,
                            const CalibrationResult* calibration, std::optional<TrtTyping> typing) {
    const TrtPolicies policies(version, fallback, calibration, typing);
    policies.apply(graph, requested);
    return requested;
}

namespace {

void appendPlanLayers(const Graph& graph, const PrecisionPlan& plan, const std::string& path, nlohmann::json& layers) {
    for (const Node& node : graph.nodes())
        if (hasPrecisionChoice(graph, node))
            layers.push_back({{"layer", path + node.name},
                              {"op", node.opType},
                              {"precision", precisionName(plan.effective(node.id))},
                              {"reason", plan.explanation(node.id)}});
    for (const BodyPlan& planned : plan.bodies()) {
        const auto node = graph.findNode(planned.node);
        if (!node || !quantizesBody(planned.plan)) continue;
        const auto body = buildSubgraphModel(graph, graph.node(*node), planned.attribute);
        if (body && body->graph.nodes().size() == planned.plan.size())
            appendPlanLayers(body->graph, planned.plan, path + bodyPathStep(planned.node, planned.attribute), layers);
    }
}

}  // namespace

nlohmann::json planLayersJson(const Graph& graph, const PrecisionPlan& plan) {
    nlohmann::json layers = nlohmann::json::array();
    appendPlanLayers(graph, plan, "", layers);
    return layers;
}

Result<TrtVersion> trtVersionOption(const std::string& text) {
    if (auto version = parseTrtVersion(text)) return *version;
    return invalidArgument("--trt " + text + ": expected 8.6, 10 or 11");
}

}  // namespace ql

namespace ql {

Result<TrtTarget> trtTargetOption(const std::string& version, const std::string& typing) {
    QL_ASSIGN_OR_RETURN(const TrtVersion parsed, trtVersionOption(version));
    TrtTarget target{parsed, defaultTyping(parsed)};
    if (typing == "weak") {
        target.typing = TrtTyping::Weak;
    } else if (typing == "strong") {
        target.typing = TrtTyping::Strong;
    } else if (!typing.empty()) {
        return invalidArgument("--typing " + typing + ": expected strong or weak");
    }
    if (!supportsTyping(parsed, target.typing))
        return invalidArgument("--trt " + version + " --typing " + typing + ": TensorRT " + trtVersionName(parsed) +
                               (parsed == TrtVersion::Trt11
                                    ? " builds only strongly typed networks (weak typing was removed in 11.0)"
                                    : " has no strongly typed networks (they arrived in 10.x)") +
                               "; drop --typing or choose another --trt");
    return target;
}

}  // namespace ql
