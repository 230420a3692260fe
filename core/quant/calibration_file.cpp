#include "core/quant/calibration_file.h"

#include <cmath>
#include <iterator>

#include "core/common/atomic_file.h"
#include "core/common/json_file.h"
#include "core/common/json_util.h"

namespace ql {
namespace {

constexpr const char* kFormat = "quantlens-calibration";
constexpr int kVersion = 1;

Status badField(const std::string& label, const std::string& what) {
    return invalidArgument(label + ": " + what + "; the file is not a valid QuantLens calibration");
}

Result<float> finiteNumber(const nlohmann::json& object, const char* key, const std::string& label,
                           const std::string& owner) {
    const auto it = object.find(key);
    if (it == object.end() || !it->is_number() || !std::isfinite(it->get<double>()))
        return badField(label, std::string(key) + " of '" + owner + "' is missing or not a finite number");
    return it->get<float>();
}

constexpr const char* kMethodKeys[] = {"minmax", "percentile", "entropy", "mse"};

float* methodField(MethodAmax& m, size_t i) {
    float* fields[] = {&m.minmax, &m.percentile, &m.entropy, &m.mse};
    return fields[i];
}

nlohmann::json activationToJson(const TensorRange& r, const CalibrationConfig& config) {
    nlohmann::json j = {{"amax", r.amax}, {"scale", r.scale()}, {"method", calibrationMethodName(r.method, config)},
                        {"min", r.min},   {"max", r.max},       {"nonFinite", r.nonFinite}};
    if (r.amaxByMethod) {
        MethodAmax m = *r.amaxByMethod;
        for (size_t i = 0; i < std::size(kMethodKeys); ++i) j["amax_by_method"][kMethodKeys[i]] = *methodField(m, i);
    }
    if (r.histogram.bins()) j["histogram"] = {{"range", r.histogram.range}, {"counts", r.histogram.counts}};
    if (r.samples > 0) j["samples"] = r.samples;
    if (!r.channelAmax.empty()) j["channel_amax"] = {{"axis", r.channelAxis}, {"amax", r.channelAmax}};
    return j;
}

// {"axis": a >= 0, "amax": [one non-negative number per channel, at least one]}.
Status channelAmaxFromJson(const nlohmann::json& j, const std::string& label, const std::string& name, TensorRange& r) {
    const std::string what = "\"channel_amax\" of '" + name + "'";
    if (!j.is_object() || !j.contains("axis") || !j["axis"].is_number_integer() || j["axis"].get<int64_t>() < 0 ||
        !j.contains("amax") || !j["amax"].is_array() || j["amax"].empty())
        return badField(label, what + " needs an \"axis\" >= 0 and a non-empty \"amax\" array");
    r.channelAxis = j["axis"].get<int64_t>();
    for (const auto& v : j["amax"]) {
        if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < 0)
            return badField(label, what + " has an amax that is not a non-negative number");
        r.channelAmax.push_back(v.get<float>());
    }
    return Status::ok();
}

Result<MethodAmax> methodAmaxFromJson(const nlohmann::json& j, const std::string& label, const std::string& name) {
    if (!j.is_object()) return badField(label, "\"amax_by_method\" of '" + name + "' is not an object");
    MethodAmax m;
    for (size_t i = 0; i < std::size(kMethodKeys); ++i) {
        QL_ASSIGN_OR_RETURN(*methodField(m, i), finiteNumber(j, kMethodKeys[i], label, name + "\" amax_by_method"));
        if (*methodField(m, i) < 0) return badField(label, "an amax_by_method of '" + name + "' is negative");
    }
    return m;
}

// A signed histogram: {"range": R >= 0, "counts": [an even number of non-negative integers]}.
Result<Histogram> histogramFromJson(const nlohmann::json& j, const std::string& label, const std::string& name) {
    const std::string what = "\"histogram\" of '" + name + "'";
    if (!j.is_object() || !j.contains("counts") || !j["counts"].is_array())
        return badField(label, what + " needs \"range\" and a \"counts\" array");
    Histogram h{{}, 0.0, false};
    QL_ASSIGN_OR_RETURN(const float range, finiteNumber(j, "range", label, name + "\" histogram"));
    h.range = j["range"].get<double>();
    if (range < 0) return badField(label, what + " has a negative range");
    for (const auto& c : j["counts"]) {
        // Parsed text gives unsigned numbers; json built in code may hold signed ones.
        if (!c.is_number_unsigned() && !(c.is_number_integer() && c.get<int64_t>() >= 0))
            return badField(label, what + " has a count that is not a non-negative integer");
        h.counts.push_back(c.get<uint64_t>());
    }
    if (h.counts.empty() || h.counts.size() % 2)
        return badField(label, what + " needs an even, non-zero number of counts (bins over [-range, range])");
    return h;
}

// The tensor's "method" (written since `auto` chooses per tensor); absent: the file's, which must not be auto.
Result<CalibrationMethod> tensorMethodFromJson(const nlohmann::json& j, const CalibrationConfig& config,
                                               const std::string& label, const std::string& name) {
    const auto it = j.find("method");
    if (it == j.end()) {
        if (config.method == CalibrationMethod::Auto)
            return badField(label, "\"method\" of '" + name + "' is missing (the file's method is auto)");
        return config.method;
    }
    const std::optional<CalibrationMethod> m =
        it->is_string() ? parseAmaxMethod(it->get<std::string>()) : std::optional<CalibrationMethod>();
    if (!m) return badField(label, "\"method\" of '" + name + "' is not minmax, percentile, entropy or mse");
    return *m;
}

// One tensor's entry, whoever's tensor it is (a main-graph value or a subgraph path).
Result<TensorRange> activationEntry(const std::string& name, const nlohmann::json& j, const CalibrationConfig& config,
                                    const std::string& label) {
    if (!j.is_object()) return badField(label, "the entry of tensor '" + name + "' is not an object");
    TensorRange r;
    r.name = name;
    QL_ASSIGN_OR_RETURN(r.amax, finiteNumber(j, "amax", label, name));
    if (r.amax < 0) return badField(label, "\"amax\" of '" + name + "' is negative");
    QL_ASSIGN_OR_RETURN(r.method, tensorMethodFromJson(j, config, label, name));
    r.min = -r.amax;
    r.max = r.amax;
    if (j.contains("min")) {
        QL_ASSIGN_OR_RETURN(r.min, finiteNumber(j, "min", label, name));
    }
    if (j.contains("max")) {
        QL_ASSIGN_OR_RETURN(r.max, finiteNumber(j, "max", label, name));
    }
    if (j.contains("nonFinite") && !j["nonFinite"].is_number_integer())
        return badField(label, "\"nonFinite\" of '" + name + "' is not an integer");
    r.nonFinite = j.value("nonFinite", int64_t{0});
    if (j.contains("samples") && (!j["samples"].is_number_integer() || j["samples"].get<int64_t>() < 0))
        return badField(label, "\"samples\" of '" + name + "' is not a count");
    r.samples = j.value("samples", int64_t{0});
    // Files written before histograms were kept have neither; both stay absent then.
    if (j.contains("amax_by_method")) {
        QL_ASSIGN_OR_RETURN(r.amaxByMethod, methodAmaxFromJson(j["amax_by_method"], label, name));
    }
    if (j.contains("histogram")) {
        QL_ASSIGN_OR_RETURN(r.histogram, histogramFromJson(j["histogram"], label, name));
    }
    if (j.contains("channel_amax")) QL_RETURN_IF_ERROR(channelAmaxFromJson(j["channel_amax"], label, name, r));
    return r;
}

Result<TensorRange> activationFromJson(const Graph& graph, const std::string& name, const nlohmann::json& j,
                                       const CalibrationConfig& config, const std::string& label) {
    if (!graph.findValue(name)) return notFound(label + ": tensor '" + name + "' is not in the model");
    return activationEntry(name, j, config, label);
}

Result<WeightRange> weightFromJson(const Graph& graph, const std::string& name, const nlohmann::json& j,
                                   const std::string& label) {
    if (!graph.findValue(name)) return notFound(label + ": weight '" + name + "' is not in the model");
    if (!j.is_object() || !j.contains("node") || !j["node"].is_string() || !j.contains("amax") ||
        !j["amax"].is_array() || !j.contains("axis") || !j["axis"].is_number_integer())
        return badField(label, "weight '" + name + "' needs \"node\", \"axis\" and an \"amax\" array");
    const std::string nodeName = j["node"];
    const std::optional<NodeId> node = graph.findNode(nodeName);
    if (!node) return notFound(label + ": node '" + nodeName + "' (of weight '" + name + "') is not in the model");
    WeightRange w{name, *node, j["axis"].get<int64_t>(), {}};
    for (const auto& v : j["amax"]) {
        if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < 0)
            return badField(label, "weight '" + name + "' has an amax that is not a non-negative number");
        w.amax.push_back(v.get<float>());
    }
    return w;
}

// "<node>/<attribute>/...": the first two parts name a control-flow node of the model and one of its bodies.
bool namesASubgraph(const Graph& graph, const std::string& path) {
    const size_t slash = path.find('/'), second = slash == std::string::npos ? slash : path.find('/', slash + 1);
    if (second == std::string::npos) return false;
    const auto node = graph.findNode(path.substr(0, slash));
    if (!node) return false;
    const std::string attribute = path.substr(slash + 1, second - slash - 1);
    for (const SubgraphInfo& body : graph.node(*node).subgraphs)
        if (body.attribute == attribute) return true;
    return false;
}

Result<std::vector<TensorRange>> subgraphActivationsFromJson(const Graph& graph, const nlohmann::json& json,
                                                             const CalibrationConfig& config,
                                                             const std::string& label) {
    std::vector<TensorRange> ranges;
    const auto nested = json.find("subgraph_activations");
    if (nested == json.end()) return ranges;
    if (!nested->is_object()) return badField(label, "\"subgraph_activations\" is not an object");
    for (const auto& [path, entry] : nested->items()) {
        if (!namesASubgraph(graph, path))
            return notFound(label + ": '" + path + "' is not a tensor inside a subgraph of the model");
        QL_ASSIGN_OR_RETURN(TensorRange r, activationEntry(path, entry, config, label));
        ranges.push_back(std::move(r));
    }
    return ranges;
}

}  // namespace

nlohmann::json calibrationToJson(const Graph& graph, const CalibrationResult& result) {
    nlohmann::json activations = nlohmann::json::object(), weights = nlohmann::json::object();
    for (const TensorRange& r : result.activations) activations[r.name] = activationToJson(r, result.config);
    for (const WeightRange& w : result.weights)
        weights[w.name] = {{"node", graph.node(w.layer).name}, {"axis", w.axis}, {"amax", w.amax}};
    nlohmann::json json = {
        {"format", kFormat},         {"version", kVersion},        {"method", calibrationMethodName(result.config)},
        {"samples", result.samples}, {"activations", activations}, {"weights", weights}};
    if (!result.subgraphActivations.empty()) {
        nlohmann::json nested = nlohmann::json::object();
        for (const TensorRange& r : result.subgraphActivations) nested[r.name] = activationToJson(r, result.config);
        json["subgraph_activations"] = nested;
    }
    if (!result.inputShapes.empty()) json["input_shapes"] = inputShapesToJson(result.inputShapes);
    return json;
}

Result<CalibrationResult> calibrationFromJson(const Graph& graph, const nlohmann::json& json,
                                              const std::string& label) {
    if (!json.is_object() || json.value("format", nlohmann::json()) != kFormat)
        return badField(label, std::string("\"format\" must be \"") + kFormat + "\"");
    if (json.value("version", nlohmann::json()) != kVersion)
        return unsupported(label + ": unsupported calibration version; this QuantLens reads version 1");
    CalibrationResult result;
    const auto method = json.find("method");
    if (method == json.end() || !method->is_string()) return badField(label, "\"method\" is missing");
    auto config = parseCalibrationMethod(*method);
    if (!config.isOk()) return config.status().withContext(label);
    result.config = *config;
    result.samples = memberInt(json, "samples", 0);
    const auto activations = json.find("activations");
    if (activations == json.end() || !activations->is_object())
        return badField(label, "\"activations\" is missing or not an object");
    for (const auto& [name, entry] : activations->items()) {
        QL_ASSIGN_OR_RETURN(TensorRange r, activationFromJson(graph, name, entry, result.config, label));
        result.activations.push_back(std::move(r));
    }
    QL_ASSIGN_OR_RETURN(result.subgraphActivations, subgraphActivationsFromJson(graph, json, result.config, label));
    QL_ASSIGN_OR_RETURN(result.inputShapes, inputShapesFromJson(graph, json, label));
    const auto weights = json.find("weights");
    if (weights != json.end() && !weights->is_object()) return badField(label, "\"weights\" is not an object");
    if (weights != json.end()) {
        for (const auto& [name, entry] : weights->items()) {
            QL_ASSIGN_OR_RETURN(WeightRange w, weightFromJson(graph, name, entry, label));
            result.weights.push_back(std::move(w));
        }
    }
    return result;
}

Status saveCalibration(const Graph& graph, const CalibrationResult& result, const std::string& path) {
    return writeFileAtomically(path, calibrationToJson(graph, result).dump(2) + "\n");
}

Result<CalibrationResult> loadCalibration(const Graph& graph, const std::string& path) {
    QL_ASSIGN_OR_RETURN(const nlohmann::json json, readJsonFile(path, "calibration"));
    return calibrationFromJson(graph, json, path);
}

}  // namespace ql
