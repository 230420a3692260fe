#include "core/engine/prediction_report.h"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/model/body_path.h"

namespace ql {

namespace {

nlohmann::json unpredictedBodiesJson(const EnginePrediction& prediction) {
    nlohmann::json list = nlohmann::json::array();
    for (const UnpredictedBodies& b : prediction.unpredictedBodies)
        list.push_back({{"node", b.node}, {"bodies", b.bodies}, {"body_nodes", b.bodyNodes}});
    return list;
}

nlohmann::json tensorsJson(const Graph& graph, const std::vector<PredictedTensor>& tensors) {
    nlohmann::json list = nlohmann::json::array();
    for (const PredictedTensor& t : tensors)
        list.push_back({{"tensor", t.value == kNoId ? nlohmann::json() : nlohmann::json(graph.value(t.value).name)},
                        {"precision", enginePrecisionName(t.precision)},
                        {"format", engineLayoutName(t.layout)}});
    return list;
}

std::string fixed(double value, int digits) {
    char buffer[64];
    std::snprintf(buffer, sizeof(buffer), "%.*f", digits, value);
    return buffer;
}

std::string percent(double share) {
    return fixed(share * 100.0, 0) + "%";
}

std::string upper(const char* name) {
    std::string text = name;
    for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return text;
}

std::string formats(const std::vector<PredictedTensor>& tensors) {
    std::string text;
    for (const PredictedTensor& t : tensors) {
        if (!text.empty()) text += ',';
        text += upper(enginePrecisionName(t.precision));
        text += ':';
        text += engineLayoutName(t.layout);
    }
    return text.empty() ? "-" : text;
}

}  // namespace

nlohmann::json estimateJson(const GpuProfile& profile) {
    if (profile.fit) {
        const FitQuality& fit = *profile.fit;
        std::string note = "estimate from a GPU profile fitted to " + std::to_string(fit.layers) + " layers of " +
                           std::to_string(fit.reports.size()) + " engine report" + (fit.reports.size() == 1 ? "" : "s");
        if (fit.leaveOneOutError)
            note += ": a report left out of the fit was predicted within " + percent(*fit.leaveOneOutError) +
                    " (median, leave-one-out), the fitted ones within " + percent(fit.totalError);
        else
            note += ": their total off by " + percent(fit.totalError) +
                    " (fitted on one report: a model it did not see may be further off)";
        note += ", per layer by a median of " + percent(fit.medianLayerError);
        return {{"fitted", true}, {"checked_error", estimateCheckedError(profile)}, {"note", note}};
    }
    return {{"fitted", false}, {"checked_error", estimateCheckedError(profile)}, {"note", checkedErrorNote()}};
}

double estimateCheckedError(const GpuProfile& profile) {
    return profile.fit ? profile.fit->checkedError() : checkedTotalError();
}

std::string estimateNote(const GpuProfile& profile) {
    return "Times are estimates: " + estimateJson(profile)["note"].get<std::string>() + ".";
}

namespace {

nlohmann::json layersJson(const Graph& graph, const EnginePrediction& prediction, const LatencyEstimate& estimate) {
    nlohmann::json layers = nlohmann::json::array();
    for (size_t i = 0; i < prediction.layers.size(); ++i) {
        const PredictedLayer& layer = prediction.layers[i];
        nlohmann::json nodes = nlohmann::json::array();
        for (NodeId n : layer.nodes) nodes.push_back(graph.node(n).name);
        layers.push_back({{"name", layer.name},
                          {"onnx_nodes", nodes},
                          {"kind", predictedKindName(layer.kind)},
                          {"cost_class", costClassName(layer.costClass)},
                          {"precision", enginePrecisionName(layer.precision)},
                          {"inputs", tensorsJson(graph, layer.inputs)},
                          {"outputs", tensorsJson(graph, layer.outputs)},
                          {"macs", layer.macs},
                          {"bytes", layer.bytes},
                          {"time_ms", estimate.layers[i].ms},
                          {"feeds", layer.feeds ? nlohmann::json(*layer.feeds) : nlohmann::json()},
                          {"note", layer.note}});
    }
    return layers;
}

nlohmann::json bodiesJson(const EnginePrediction& prediction, const LatencyEstimate& estimate) {
    nlohmann::json bodies = nlohmann::json::array();
    for (size_t i = 0; i < prediction.bodies.size(); ++i) {
        const PredictedBody& body = prediction.bodies[i];
        const LatencyEstimate& inner = *estimate.bodies[i].estimate;
        bodies.push_back({{"node", body.node},
                          {"op", body.opType},
                          {"attribute", body.attribute},
                          {"trips", body.trips ? nlohmann::json(*body.trips) : nlohmann::json()},
                          {"layers", layersJson(body.graph->graph, *body.engine, inner)},
                          {"reformats", body.engine->reformatCount()},
                          {"total_ms", inner.totalMs},
                          {"counted_ms", estimate.bodies[i].countedMs},
                          {"bodies", bodiesJson(*body.engine, inner)}});
    }
    return bodies;
}

// Whether a body, or one nested in it, has layers: an empty one (shape arithmetic only) is not worth a line.
bool hasLayers(const EnginePrediction& prediction) {
    return !prediction.layers.empty() || std::any_of(prediction.bodies.begin(), prediction.bodies.end(),
                                                     [](const PredictedBody& body) { return hasLayers(*body.engine); });
}

// One line per body with layers: their count, its time and what the enclosing total counts of it; nested bodies
// follow theirs.
void bodiesText(const EnginePrediction& prediction, const LatencyEstimate& estimate, const std::string& path,
                std::ostringstream& out) {
    for (size_t i = 0; i < prediction.bodies.size(); ++i) {
        const PredictedBody& body = prediction.bodies[i];
        if (!hasLayers(*body.engine)) continue;
        const LatencyEstimate& inner = *estimate.bodies[i].estimate;
        const std::string where = path + bodyPathStep(body.node, body.attribute);
        out << "  " << where.substr(0, where.size() - 1) << " (" << body.opType << "): " << body.engine->layers.size()
            << " layers, " << body.engine->reformatCount() << " reformats, " << fixed(inner.totalMs, 3)
            << " ms a run, ";
        if (body.opType == "If")
            out << (estimate.bodies[i].countedMs > 0 ? "the slower branch: counted" : "the faster branch: not counted");
        else if (body.trips)
            out << "counted " << *body.trips << " times (its trip count)";
        else
            out << "counted once (its trip count is known only when it runs)";
        out << "\n";
        bodiesText(*body.engine, inner, where, out);
    }
}

}  // namespace

nlohmann::json predictionToJson(const PredictionView& view) {
    const GpuSpec& gpu = view.profile.gpu;
    const nlohmann::json layers = layersJson(view.graph, view.prediction, view.estimate);
    const double speedup = view.estimate.totalMs > 0 ? view.fp16Estimate.totalMs / view.estimate.totalMs : 0.0;
    return {{"gpu",
             {{"name", gpu.name},
              {"display_name", gpu.displayName},
              {"compute_capability", gpu.computeCapability},
              {"source", gpu.source},
              {"profile", view.profile.file.empty() ? nlohmann::json() : nlohmann::json(view.profile.file)}}},
            {"trt", trtVersionName(view.prediction.target.version)},
            {"typing", trtTypingName(view.prediction.target.typing)},
            {"layers", layers},
            {"reformats", view.prediction.reformatCount()},
            {"reformat_ms", view.estimate.reformatMs},
            {"total_ms", view.estimate.totalMs},
            {"fp16_total_ms", view.fp16Estimate.totalMs},
            {"speedup_vs_fp16", speedup},
            {"approximate_shapes", view.prediction.approximateShapes},
            {"bodies", bodiesJson(view.prediction, view.estimate)},
            {"bodies_ms", view.estimate.bodiesMs},
            {"unpredicted_bodies", unpredictedBodiesJson(view.prediction)},
            {"estimate", estimateJson(view.profile)}};
}

std::string unpredictedBodiesText(const EnginePrediction& prediction) {
    std::string names;
    size_t nodes = 0;
    for (size_t i = 0; i < prediction.unpredictedBodies.size(); ++i) {
        const UnpredictedBodies& b = prediction.unpredictedBodies[i];
        if (i < 3) names += (i ? ", " : "") + b.node;
        nodes += b.bodyNodes;
    }
    if (prediction.unpredictedBodies.size() > 3)
        names += " and " + std::to_string(prediction.unpredictedBodies.size() - 3) + " more";
    return "Not predicted: the " + std::to_string(nodes) + " nodes inside the bodies of " + names +
           " (If/Loop/Scan); the times leave them out, so the latency is too low by what they take.";
}

std::string predictionToText(const PredictionView& view) {
    std::ostringstream out;
    const EnginePrediction& p = view.prediction;
    out << "Predicted TensorRT " << trtVersionName(p.target.version) << " engine (" << trtTypingName(p.target.typing)
        << "ly typed) on " << view.profile.gpu.displayName
        << (view.profile.file.empty() ? "" : " (profile " + view.profile.file + ")") << ": " << p.layers.size()
        << " layers, " << p.reformatCount() << " reformats\n";
    out << "  #  kind           prec  in -> out                         MMACs   est. ms  layer\n";
    for (size_t i = 0; i < p.layers.size(); ++i) {
        const PredictedLayer& layer = p.layers[i];
        std::string io = formats(layer.inputs) + " -> " + formats(layer.outputs);
        if (io.size() > 32) io = io.substr(0, 29) + "...";
        std::string name = layer.name.size() > 70 ? layer.name.substr(0, 67) + "..." : layer.name;
        char row[256];
        std::snprintf(row, sizeof(row), "%3zu  %-13s  %-4s  %-32s %7.1f  %8.4f  ", i, predictedKindName(layer.kind),
                      upper(enginePrecisionName(layer.precision)).c_str(), io.c_str(),
                      static_cast<double>(layer.macs) / 1e6, view.estimate.layers[i].ms);
        out << row << name << "\n";
    }
    const double speedup = view.estimate.totalMs > 0 ? view.fp16Estimate.totalMs / view.estimate.totalMs : 0.0;
    out << "Estimated latency: " << fixed(view.estimate.totalMs, 3) << " ms (reformats "
        << fixed(view.estimate.reformatMs, 3) << " ms); all FP16: " << fixed(view.fp16Estimate.totalMs, 3)
        << " ms; speedup vs FP16: " << fixed(speedup, 2) << "x\n";
    if (!p.bodies.empty()) {
        out << "If/Loop/Scan bodies (" << fixed(view.estimate.bodiesMs, 3)
            << " ms of the latency; their layers are in --json under \"bodies\"):\n";
        bodiesText(p, view.estimate, "", out);
    }
    if (p.approximateShapes) out << "Some dimensions were unknown and taken as 1 (--shapes sets them).\n";
    if (!p.unpredictedBodies.empty()) out << unpredictedBodiesText(p) << "\n";
    out << estimateNote(view.profile) << "\n";
    return out.str();
}

}  // namespace ql
