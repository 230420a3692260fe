#include "core/export/effective_plan.h"

#include "core/lint/lint_policy.h"
#include "core/model/fp16_form.h"
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

nlohmann::json planLayersJson(const Graph& graph, const PrecisionPlan& plan) {
    nlohmann::json layers = nlohmann::json::array();
    for (const Node& node : graph.nodes())
        if (hasPrecisionChoice(graph, node))
            layers.push_back({{"layer", node.name},
                              {"op", node.opType},
                              {"precision", precisionName(plan.effective(node.id))},
                              {"reason", plan.explanation(node.id)}});
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
