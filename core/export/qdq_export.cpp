#include "core/export/qdq_export.h"

#include <onnx/version_converter/convert.h>

#include <algorithm>
#include <exception>
#include <unordered_map>

#include "core/common/atomic_file.h"
#include "core/export/body_export.h"
#include "core/export/carried_model.h"
#include "core/export/graph_preparation.h"
#include "core/export/opset_shapes.h"
#include "core/export/qdq_writer.h"
#include "core/export/trtexec_command.h"
#include "core/lint/lint_context.h"
#include "core/model/body_path.h"
#include "core/model/fp16_form.h"
#include "core/model/op_roles.h"
#include "core/quant/fp16_guard.h"
#include "core/quant/realized_precision.h"

namespace ql {
namespace {

// ONNX's version converter; it throws on ops it cannot convert, which becomes a Status naming the model. It reads
// shapes from value_info: the ones shape inference could not find are added from the executor's run (opset_shapes.h).
// The run takes the input sizes the calibration saw (a text recognizer pools its width away: 1 fails, 320 runs).
Result<std::unique_ptr<Model>> raiseOpset(std::unique_ptr<Model> model, const CalibrationResult& calibration) {
    if (model->graph().opsetVersion("") >= kQdqMinOpset) return model;
    QL_ASSIGN_OR_RETURN(auto proto, selfContainedProto(*model));
    KnownInputShapes known;
    for (const InputShapeRange& range : calibration.inputShapes) known[range.input] = range.opt;
    QL_RETURN_IF_ERROR(addObservedShapes(*model, proto, known)
                           .withContext(model->fileName() + ": cannot raise opset " +
                                        std::to_string(model->graph().opsetVersion("")) + " to 13 for Q/DQ"));
    onnx::ModelProto converted;
    try {
        converted = onnx::version_conversion::ConvertVersion(proto, kQdqMinOpset);
    } catch (const std::exception& e) {
        return unsupported(model->fileName() + ": cannot raise opset " +
                           std::to_string(model->graph().opsetVersion("")) + " to 13 for Q/DQ: " + e.what());
    }
    converted.set_ir_version(std::max<int64_t>(converted.ir_version(), 7));  // opset 13 needs IR 7
    return reloadModel(converted, *model);
}

// A layer the placement did not quantize on its own account (reason empty) keeps the plan's reason, e.g. the
// lint rule that made TensorRT fall back (effective_plan.h), or the default placement's note (a YOLO head kept in
// float), so the summary says why it has no Q/DQ.
void addPlanReasons(const Graph& graph, const PrecisionPlan& plan, QdqPlacement& placement) {
    std::unordered_map<std::string, const std::string*> reasons;
    for (const Node& node : graph.nodes()) {
        if (!plan.explanation(node.id).empty()) reasons[node.name] = &plan.explanation(node.id);
    }
    for (auto& layer : placement.layers)
        if (auto it = reasons.find(layer.layer); layer.reason.empty() && it != reasons.end())
            layer.reason = *it->second;
}

// An INT8-planned node without Q/DQ whose float inputs all come from island nodes. Only ops whose float16 result is
// the float32 one rounded (keepsValues: they move, select or clamp at 0) follow their FP16 producer into the island:
// a Cast between an FP16 Conv and its Relu would keep TensorRT from fusing them, and the numbers the simulation
// predicts stay exact.
bool followsIsland(const Graph& prepared, const Node& node, const QdqPlacement& placement,
                   const std::vector<bool>& island) {
    if (placement.layers[static_cast<size_t>(node.id)].precision != Precision::Int8 || !keepsValues(node)) return false;
    for (const auto& edge : placement.edges)
        if (edge.consumer == node.id) return false;
    const Fp16Form form = fp16Form(prepared, node);
    if (!form.possible()) return false;
    bool any = false;
    for (size_t i = 0; i < node.inputs.size(); ++i) {
        if (!form.inputs[i]) continue;
        const NodeId producer = prepared.value(node.inputs[i]).producer;
        if (producer == kNoId || !island[static_cast<size_t>(producer)]) return false;
        any = true;
    }
    return any;
}

// The prepared nodes written as float16: FP16 in the placement and clear of the guard on the prepared graph (where
// BatchNormalization is folded); a node the guard stops becomes FP32 in the placement, with the reason. Then the
// value-moving nodes that follow an island join it.
std::vector<bool> islandNodes(const Graph& prepared, const CalibrationResult& calibration, QdqPlacement& placement) {
    std::vector<bool> island(prepared.nodes().size(), false);
    const Fp16Guard guard(&calibration);
    for (const Node& node : prepared.nodes()) {
        LayerDecision& layer = placement.layers[static_cast<size_t>(node.id)];
        if (followsIsland(prepared, node, placement, island)) {
            layer.precision = Precision::Fp16;
            layer.reason = "follows its FP16 input into the float16 island (exact in float16, no Cast between them)";
        }
        if (layer.precision != Precision::Fp16 || !computesFloat(prepared, node)) continue;
        if (auto why = guard.blocker(prepared, node); !why.empty()) {
            layer.precision = Precision::Fp32;
            layer.reason = layer.reason.empty() ? why : layer.reason + "; " + why;
            continue;
        }
        island[static_cast<size_t>(node.id)] = true;
    }
    return island;
}

// Under weak typing the FP32 layers are pinned in the trtexec script only; the file names them too, so that reading
// it back (carried_model.h) says FP32 where the engine runs FP32, not the --fp16 a float32 node otherwise means.
void recordFp32Layers(QdqExport& result) {
    nlohmann::json names = nlohmann::json::array();
    for (const PinnedFp32Layer& pinned : pinnedFp32Layers(result))
        names.push_back(pinned.path + pinned.graph->node(pinned.node).name);
    if (!names.empty()) recordMetadata(result.proto, kFp32LayersMetadataKey, names.dump());
}

}  // namespace

Result<QdqExport> exportQdq(const Model& model, const PrecisionPlan& plan, const CalibrationResult& calibration,
                            const QdqOptions& options, const ExportTarget& target) {
    if (plan.size() != model.graph().nodes().size())
        return invalidArgument(model.fileName() + ": the precision plan was made for another model");
    QL_ASSIGN_OR_RETURN(auto prepared, prepareModel(model));
    QdqExport result;
    result.steps = std::move(prepared.steps);
    QL_ASSIGN_OR_RETURN(result.prepared, raiseOpset(std::move(prepared.model), calibration));
    QL_ASSIGN_OR_RETURN(const AmaxByName amax, activationAmax(calibration, plan));
    // The summary must say what the file runs: a plan that is not realized yet (effectivePlan realizes it, and then
    // this changes nothing) has its INT8 nodes without Q/DQ or fusion labelled as the float32 the file runs them in.
    PrecisionPlan realized = plan;
    RealizedPrecision(Precision::Fp32, target.trt.typing == TrtTyping::Strong, &calibration)
        .apply(model.graph(), realized);
    QL_ASSIGN_OR_RETURN(result.placement, placeQdq(result.prepared->graph(),
                                                   effectivePrecisions(model.graph(), realized), amax, options));
    addPlanReasons(model.graph(), realized, result.placement);
    result.target = target.trt;
    result.fp16Io = target.fp16Io && target.trt.typing == TrtTyping::Strong;
    Fp16Islands islands{.nodes = {}, .fp16Io = result.fp16Io};
    if (target.trt.typing == TrtTyping::Strong)
        islands.nodes = islandNodes(result.prepared->graph(), calibration, result.placement);
    QL_ASSIGN_OR_RETURN(result.proto, writeQdq(*result.prepared, result.placement, options, islands, &result.islands));
    QL_RETURN_IF_ERROR(exportBodies(model, plan, calibration, options, target, result));
    recordMetadata(result.proto, kTypingMetadataKey, trtTypingName(target.trt.typing));
    recordFp32Layers(result);
    return result;
}

ExportLayerCounts exportLayerCounts(const QdqExport& result) {
    ExportLayerCounts counts;
    counts.quantizedInputs = static_cast<int>(result.placement.edges.size());
    const Graph& graph = result.prepared->graph();
    for (size_t i = 0; i < result.placement.layers.size(); ++i) {
        const LayerDecision& layer = result.placement.layers[i];
        const bool int8 = layer.precision == Precision::Int8;
        const bool weighted = isWeightedLayer(graph.node(static_cast<NodeId>(i)));
        counts.weighted += weighted ? 1 : 0;
        counts.int8Weighted += weighted && int8 ? 1 : 0;
        counts.int8All += int8 ? 1 : 0;
        counts.fp16Guarded +=
            layer.precision == Precision::Fp32 && layer.reason.find("FP16 guard") != std::string::npos ? 1 : 0;
    }
    for (const QdqBodyExport& body : result.bodies) {
        const ExportLayerCounts inner = exportLayerCounts(*body.body);
        counts.quantizedInputs += inner.quantizedInputs;
        counts.weighted += inner.weighted;
        counts.int8Weighted += inner.int8Weighted;
        counts.int8All += inner.int8All;
        counts.fp16Guarded += inner.fp16Guarded;
    }
    return counts;
}

namespace {

// The summary's "layers" and "qdq" entries of `result` and its bodies, names prefixed by where they are.
void appendLayersAndQdq(const QdqExport& result, const std::string& prefix, nlohmann::json& layers,
                        nlohmann::json& qdq) {
    const Graph& graph = result.prepared->graph();
    for (const auto& layer : result.placement.layers)
        layers.push_back({{"layer", prefix + layer.layer},
                          {"op", layer.op},
                          {"precision", precisionName(layer.precision)},
                          {"reason", layer.reason}});
    for (const auto& edge : result.placement.edges)
        qdq.push_back({{"layer", prefix + graph.node(edge.consumer).name},
                       {"input", edge.input},
                       {"tensor", graph.value(edge.tensor).name},
                       {"kind", edge.weight ? "weight" : "activation"},
                       {"scale", edge.scales},
                       {"axis", edge.axis},
                       {"reason", edge.reason}});
    for (const QdqBodyExport& body : result.bodies)
        appendLayersAndQdq(*body.body, prefix + bodyPathStep(body.node, body.attribute), layers, qdq);
}

}  // namespace

nlohmann::json qdqSummaryJson(const QdqExport& result) {
    const Graph& graph = result.prepared->graph();
    nlohmann::json steps = nlohmann::json::array(), layers = nlohmann::json::array(), qdq = nlohmann::json::array();
    for (const auto& step : result.steps)
        steps.push_back({{"action", step.action}, {"node", step.node}, {"detail", step.detail}});
    appendLayersAndQdq(result, "", layers, qdq);
    nlohmann::json script = nullptr;
    if (auto plan = trtexecPlan(result)) script = trtexecPlanJson(*plan);
    return {{"format", "quantlens-qdq-summary"},
            {"version", 1},
            {"model", result.prepared->fileName()},
            {"opset", graph.opsetVersion("")},
            {"target",
             {{"trt", trtVersionName(result.target.version)},
              {"typing", trtTypingName(result.target.typing)},
              {"fp16_io", result.fp16Io}}},
            {"fp16_islands",
             {{"nodes", result.islands.nodes},
              {"casts", result.islands.casts},
              {"initializers", result.islands.initializers}}},
            {"script", script},
            {"preparation", steps},
            {"layers", layers},
            {"qdq", qdq}};
}

Status saveQdqExport(const QdqExport& result, const std::string& modelPath, const std::string& summaryPath) {
    std::string bytes;
    if (!result.proto.SerializeToString(&bytes))
        return unsupported(modelPath + ": the Q/DQ model exceeds the 2 GB protobuf limit");
    QL_RETURN_IF_ERROR(writeFileAtomically(modelPath, bytes));
    if (summaryPath.empty()) return Status::ok();
    return writeFileAtomically(summaryPath, qdqSummaryJson(result).dump(2) + "\n");
}

}  // namespace ql
