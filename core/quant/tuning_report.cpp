#include "core/quant/tuning_report.h"

namespace ql {
namespace {

const char* movedBy(bool byRules) {
    return byRules ? "tensorrt-rules" : "tune";
}

nlohmann::json stepJson(const TuneReport& report, const TuneStep& step, size_t index) {
    nlohmann::json j = {{"step", index + 1},
                        {"action", tuneActionName(step.action)},
                        {"value", report.target.valueOf(step.score)},
                        {"kept", step.kept},
                        {"samples", step.samples}};
    if (step.layer != kNoId) j["layer"] = step.layerName;
    if (!step.tensor.empty()) j["tensor"] = step.tensor;
    if (step.action == TuneStep::Action::Method) j["method"] = amaxMethodKey(step.method);
    if (step.action == TuneStep::Action::Fallback || step.action == TuneStep::Action::GiveBack)
        j["precision"] = precisionName(step.precision);
    if (step.action == TuneStep::Action::Speed || step.action == TuneStep::Action::AllFp16)
        j["precision"] = precisionName(step.precision);
    if (!step.why.empty()) j["why"] = step.why;
    if (step.predictedMs) j["predicted_ms"] = *step.predictedMs;
    return j;
}

nlohmann::json latencyJson(const Graph& graph, const TuneReport& report) {
    const TuneLatency& latency = *report.latency;
    nlohmann::json regions = nlohmann::json::array();
    for (const RegionDecision& d : latency.regions) {
        nlohmann::json nodes = nlohmann::json::array();
        for (NodeId n : d.nodes) nodes.push_back(graph.node(n).name);
        regions.push_back({{"nodes", nodes},
                           {"layers", d.layers},
                           {"precision", precisionName(d.precision)},
                           {"pays", d.pays()},
                           {"int8_saves_ms", d.int8SavesMs},
                           {"reformats", d.reformats},
                           {"reformat_cost_ms", d.reformatCostMs},
                           {"net_ms", d.netMs()},
                           {"why", d.why}});
    }
    nlohmann::json j = {{"gpu", latency.gpu},        {"start_ms", latency.startMs},
                        {"fp16_ms", latency.fp16Ms}, {"final_ms", latency.finalMs},
                        {"regions", regions},        {"predictions", latency.predictions}};
    if (latency.fp16Score) j["fp16_value"] = report.target.valueOf(*latency.fp16Score);
    return j;
}

}  // namespace

nlohmann::json tuneReportToJson(const Graph& graph, const TuneReport& report) {
    nlohmann::json steps = nlohmann::json::array(), layers = nlohmann::json::array(), tensors = nlohmann::json::array();
    for (size_t i = 0; i < report.steps.size(); ++i) steps.push_back(stepJson(report, report.steps[i], i));
    for (const TuneUnit& u : report.units)
        layers.push_back({{"layer", u.name},
                          {"op", u.op},
                          {"nodes", u.nodeNames},
                          {"output_sqnr_db", u.outputSqnrDb},
                          {"macs", u.macs}});
    for (const TensorSensitivity& t : report.tensors)
        tensors.push_back({{"tensor", graph.value(t.tensor).name},
                           {"method", amaxMethodKey(t.method)},
                           {"amax", t.amax},
                           {"output_sqnr_db", t.outputSqnrDb}});
    // The tune's (moved_by says whether the tune moved it or TensorRT's rules took it out after), or the plan's.
    const auto keptOutJson = [&](const std::vector<NodeId>& nodes, bool tuned) {
        nlohmann::json layers = nlohmann::json::array();
        for (NodeId n : nodes) {
            layers.push_back({{"layer", graph.node(n).name},
                              {"op", graph.node(n).opType},
                              {"precision", precisionName(report.plan.effective(n))}});
            if (tuned) layers.back()["moved_by"] = movedBy(outOfInt8ByRules(report.plan, n));
        }
        return layers;
    };
    nlohmann::json keptOut = keptOutJson(report.keptOut, true);
    for (const TuneUnit& u : report.keptOutInBodies)
        keptOut.push_back({{"layer", u.name},
                           {"op", u.op},
                           {"precision", precisionName(unitEffective(report.plan, u))},
                           {"moved_by", movedBy(outOfInt8ByRules(report.plan, u))}});
    nlohmann::json j = {
        {"target", report.target.text()},
        {"objective", tuneObjectiveName(report.objective)},
        {"met", report.met},
        {"samples", report.samples},
        {"subset_samples", report.subsetSamples},
        {"start", report.target.valueOf(report.startScore)},
        {"final", report.target.valueOf(report.finalScore)},
        {"steps", steps},
        {"sensitivity", {{"layers", layers}, {"tensors", tensors}}},
        {"kept_out", keptOut},
        {"kept_out_by_plan", keptOutJson(report.planKeptOut, false)},
        {"int8_macs", report.int8Macs},
        {"total_macs", report.totalMacs},
        {"int8_mac_share",
         report.totalMacs ? static_cast<double>(report.int8Macs) / static_cast<double>(report.totalMacs) : 0.0},
        {"trials", report.trials},
        {"seconds", report.seconds},
        {"sensitivity_passes", report.sensitivityPasses}};
    if (report.fp32Metric) j["fp32_metric"] = *report.fp32Metric;
    if (report.latency) j["latency"] = latencyJson(graph, report);
    return j;
}

}  // namespace ql
