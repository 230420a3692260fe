#include "core/quant/analysis_file.h"

#include <algorithm>
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

ErrorMetrics metricsFromJson(const nlohmann::json& json) {
    ErrorMetrics m;
    m.sqnrDb = numberOrInfinity(json, "sqnr_db");
    m.cosine = numberOr(json, "cosine", 1.0);
    m.mse = numberOr(json, "mse", 0.0);
    m.maxAbs = numberOr(json, "max_abs", 0.0);
    return m;
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
    return LayerError{.node = *node, .output = *output, .precision = *precision, .metrics = metricsFromJson(layer)};
}

// JSON has no infinity: an exact layer's SQNR (+inf) is written as null.
nlohmann::json finiteOrNull(double value) {
    return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json();
}

// "class vector" -> "class_vector": the JSON spelling of a kind.
std::string kindKey(OutputKind kind) {
    std::string key = outputKindName(kind);
    std::replace(key.begin(), key.end(), ' ', '_');
    return key;
}

OutputKind kindFromKey(const std::string& key) {
    for (OutputKind kind : {OutputKind::ClassVector, OutputKind::Detection})
        if (key == kindKey(kind)) return kind;
    return OutputKind::Values;
}

// "non_finite" only when the quantized run gave NaN or infinity where FP32 did not (its "sqnr_db" is then null too).
nlohmann::json metricsJson(const ErrorMetrics& m) {
    nlohmann::json json = {
        {"sqnr_db", finiteOrNull(m.sqnrDb)}, {"cosine", m.cosine}, {"mse", m.mse}, {"max_abs", m.maxAbs}};
    if (m.nonFinite > 0) json["non_finite"] = m.nonFinite;
    return json;
}

void addAgreement(const OutputAgreement& o, nlohmann::json& json) {
    if (o.samples == 0) return;
    json["samples"] = o.samples;
    json["top1_agreement"] = o.top1Agreement;
    if (!o.hasLabels) return;
    json["accuracy_fp32"] = o.accuracyFp32;
    json["accuracy_quant"] = o.accuracyQuant;
    json["accuracy_delta"] = o.accuracyQuant - o.accuracyFp32;
}

OutputAgreement agreementFromJson(const nlohmann::json& json, int64_t samples) {
    OutputAgreement o;
    if (!json.contains("top1_agreement")) return o;
    o.samples = memberInt(json, "samples", samples);
    o.top1Agreement = numberOr(json, "top1_agreement", 0.0);
    o.hasLabels = json.contains("accuracy_fp32");
    o.accuracyFp32 = numberOr(json, "accuracy_fp32", 0.0);
    o.accuracyQuant = numberOr(json, "accuracy_quant", 0.0);
    return o;
}

// Every output's error (whole plan), and the worst one by name: what `compare` headlines.
void addOutputErrors(const Graph& graph, const AnalysisReport& report, nlohmann::json& outputs) {
    if (report.outputErrors.empty()) return;
    nlohmann::json each = nlohmann::json::array();
    for (const OutputError& o : report.outputErrors) {
        nlohmann::json entry = metricsJson(o.metrics);
        entry["name"] = graph.value(o.output).name;
        entry["kind"] = kindKey(o.kind);
        if (!o.kindWhy.empty()) entry["kind_reason"] = o.kindWhy;
        addAgreement(o.agreement, entry);
        each.push_back(std::move(entry));
    }
    outputs["kind"] = kindKey(report.outputErrors.front().kind);
    outputs["per_output"] = std::move(each);
    if (const OutputError* worst = worstOutput(report)) {
        outputs["worst"] = metricsJson(worst->metrics);
        outputs["worst"]["name"] = graph.value(worst->output).name;
    }
}

Result<std::vector<OutputError>> outputErrorsFromJson(const Graph& graph, const nlohmann::json& outputs,
                                                      int64_t samples, const std::string& label) {
    std::vector<OutputError> errors;
    const auto each = outputs.find("per_output");
    if (each == outputs.end() || !each->is_array()) return errors;
    for (const nlohmann::json& entry : *each) {
        if (!entry.is_object()) return badAnalysis(label, "\"per_output\" entries must be objects");
        const std::string name = memberString(entry, "name");
        const auto value = graph.findValue(name);
        if (!value) return badAnalysis(label, "names output '" + name + "', which the model does not have");
        errors.push_back({*value, kindFromKey(memberString(entry, "kind")), memberString(entry, "kind_reason"),
                          metricsFromJson(entry), agreementFromJson(entry, samples)});
    }
    return errors;
}

// What a layer row measures, said where the numbers are read.
const char* layersMeasure(AnalysisMode mode) {
    return mode == AnalysisMode::Isolated
               ? "each layer quantized alone on FP32 inputs (its sensitivity), not the quantized model; the outputs "
                 "are the whole plan's"
               : "the whole plan: each layer with every layer before it quantized too";
}

// The layers inside If/Loop/Scan bodies, named by where they are.
nlohmann::json bodyLayersJson(const std::vector<BodyLayerError>& layers) {
    nlohmann::json json = nlohmann::json::array();
    for (const BodyLayerError& l : layers) {
        nlohmann::json entry = {{"body", l.body},
                                {"node", l.node},
                                {"op", l.op},
                                {"output", l.output},
                                {"precision", precisionName(l.precision)}};
        entry.update(metricsJson(l.metrics));
        json.push_back(std::move(entry));
    }
    return json;
}

// Body layers are kept by name: the bodies are not built to check them (a stale row matches no table row).
Result<std::vector<BodyLayerError>> bodyLayersFromJson(const nlohmann::json& json, const std::string& label) {
    std::vector<BodyLayerError> layers;
    const auto each = json.find("body_layers");
    if (each == json.end()) return layers;
    if (!each->is_array()) return badAnalysis(label, "\"body_layers\" must be an array");
    for (const nlohmann::json& entry : *each) {
        if (!entry.is_object()) return badAnalysis(label, "\"body_layers\" entries must be objects");
        const auto precision = parsePrecision(memberString(entry, "precision"));
        if (!precision)
            return badAnalysis(label, "body layer '" + memberString(entry, "node") + "' has no valid precision");
        layers.push_back({memberString(entry, "body"), memberString(entry, "node"), memberString(entry, "op"),
                          memberString(entry, "output"), *precision, metricsFromJson(entry)});
    }
    return layers;
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
    addAgreement(report.outputs, outputs);

    addOutputErrors(graph, report, outputs);
    nlohmann::json json = {{"mode", analysisModeName(report.mode)},
                           {"layers_measure", layersMeasure(report.mode)},
                           {"samples", report.samples},
                           {"layers", layers},
                           {"outputs", outputs}};
    if (!report.bodyLayers.empty()) json["body_layers"] = bodyLayersJson(report.bodyLayers);
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
    QL_ASSIGN_OR_RETURN(report.bodyLayers, bodyLayersFromJson(json, label));
    if (const auto outputs = json.find("outputs"); outputs != json.end() && outputs->is_object()) {
        report.outputs = agreementFromJson(*outputs, report.samples);
        QL_ASSIGN_OR_RETURN(report.outputErrors, outputErrorsFromJson(graph, *outputs, report.samples, label));
    }
    return report;
}

}  // namespace ql
