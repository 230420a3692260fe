#include "core/quant/analysis_file.h"

#include <cmath>
#include <limits>

#include "core/common/json_util.h"

namespace ql {
namespace {

Status badAnalysis(const std::string& label, const std::string& what) {
    return invalidArgument(label + ": analysis " + what);
}

// A number field, or +inf when null (how an exact layer's SQNR is written).
double numberOrInfinity(const nlohmann::json& layer, const char* key) {
    const auto it = layer.find(key);
    if (it == layer.end() || !it->is_number()) return std::numeric_limits<double>::infinity();
    return it->get<double>();
}

double numberOr(const nlohmann::json& object, const char* key, double fallback) {
    const auto it = object.find(key);
    return it != object.end() && it->is_number() ? it->get<double>() : fallback;
}

Result<LayerError> layerFromJson(const Graph& graph, const nlohmann::json& layer, const std::string& label) {
    if (!layer.is_object()) return badAnalysis(label, "layer entries must be objects");
    const std::string nodeName = memberString(layer, "node");
    const std::string outputName = memberString(layer, "output");
    const auto node = graph.findNode(nodeName);
    if (!node) return badAnalysis(label, "names node '" + nodeName + "', which the model does not have");
    const auto output = graph.findValue(outputName);
    if (!output) return badAnalysis(label, "names tensor '" + outputName + "', which the model does not have");
    const auto precision = parsePrecision(memberString(layer, "precision"));
    if (!precision) return badAnalysis(label, "layer '" + nodeName + "' has no valid precision");
    LayerError error{.node = *node, .output = *output, .precision = *precision, .metrics = {}};
    error.metrics.sqnrDb = numberOrInfinity(layer, "sqnr_db");
    error.metrics.cosine = numberOr(layer, "cosine", 1.0);
    error.metrics.mse = numberOr(layer, "mse", 0.0);
    error.metrics.maxAbs = numberOr(layer, "max_abs", 0.0);
    return error;
}

// JSON has no infinity: an exact layer's SQNR (+inf) is written as null.
nlohmann::json finiteOrNull(double value) {
    return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json();
}

}  // namespace

nlohmann::json analysisToJson(const Graph& graph, const AnalysisReport& report) {
    nlohmann::json layers = nlohmann::json::array();
    for (const LayerError& l : report.layers) {
        const Node& node = graph.node(l.node);
        layers.push_back({{"node", node.name},
                          {"op", node.opType},
                          {"output", graph.value(l.output).name},
                          {"precision", precisionName(l.precision)},
                          {"sqnr_db", finiteOrNull(l.metrics.sqnrDb)},
                          {"cosine", l.metrics.cosine},
                          {"mse", l.metrics.mse},
                          {"max_abs", l.metrics.maxAbs}});
    }
    nlohmann::json outputs = nlohmann::json::object();
    if (report.outputs.samples > 0) {
        outputs["samples"] = report.outputs.samples;
        outputs["top1_agreement"] = report.outputs.top1Agreement;
        if (report.outputs.hasLabels) {
            outputs["accuracy_fp32"] = report.outputs.accuracyFp32;
            outputs["accuracy_quant"] = report.outputs.accuracyQuant;
            outputs["accuracy_delta"] = report.outputs.accuracyQuant - report.outputs.accuracyFp32;
        }
    }
    nlohmann::json json = {
        {"mode", analysisModeName(report.mode)}, {"samples", report.samples}, {"layers", layers}, {"outputs", outputs}};
    if (!report.outputGroups.empty()) {
        nlohmann::json groups = nlohmann::json::array();
        for (const OutputGroupError& g : report.outputGroups)
            groups.push_back({{"name", g.group.name},
                              {"axis", g.group.axis},
                              {"begin", g.group.begin},
                              {"end", g.group.end},
                              {"sqnr_db", finiteOrNull(g.metrics.sqnrDb)},
                              {"cosine", g.metrics.cosine},
                              {"mse", g.metrics.mse},
                              {"max_abs", g.metrics.maxAbs}});
        json["output_groups"] = groups;
    }
    return json;
}

Result<AnalysisReport> analysisFromJson(const Graph& graph, const nlohmann::json& json, const std::string& label) {
    if (!json.is_object()) return badAnalysis(label, "must be a JSON object");
    AnalysisReport report;
    const auto mode = parseAnalysisMode(memberString(json, "mode"));
    if (!mode) return badAnalysis(label, "has no valid \"mode\" (accumulated or isolated)");
    report.mode = *mode;
    report.samples = memberInt(json, "samples", 0);
    const auto layers = json.find("layers");
    if (layers == json.end() || !layers->is_array()) return badAnalysis(label, "has no \"layers\" array");
    for (const nlohmann::json& layer : *layers) {
        QL_ASSIGN_OR_RETURN(LayerError error, layerFromJson(graph, layer, label));
        report.layers.push_back(error);
    }
    if (const auto outputs = json.find("outputs");
        outputs != json.end() && outputs->is_object() && outputs->contains("top1_agreement")) {
        OutputAgreement& o = report.outputs;
        o.samples = memberInt(*outputs, "samples", report.samples);
        o.top1Agreement = numberOr(*outputs, "top1_agreement", 0.0);
        o.hasLabels = outputs->contains("accuracy_fp32");
        o.accuracyFp32 = numberOr(*outputs, "accuracy_fp32", 0.0);
        o.accuracyQuant = numberOr(*outputs, "accuracy_quant", 0.0);
    }
    return report;
}

}  // namespace ql
