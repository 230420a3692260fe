#include "core/export/carried_model.h"

#include <onnx/onnx_pb.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>
#include <unordered_map>

#include "core/export/qoperator_import.h"
#include "core/model/fp16_form.h"
#include "core/quant/default_placement.h"
#include "core/quant/realized_precision.h"

namespace ql {
namespace {

// The names of the nodes a DequantizeLinear feeds in `qdq`.
std::set<std::string> quantizedNodes(const Graph& qdq) {
    std::set<std::string> names;
    for (const QdqLink& link : qdq.qdqLinks())
        if (link.layer != kNoId) names.insert(qdq.node(link.layer).name);
    return names;
}

// What the written model says (writtenPrecisions, the inverse of the realized plan), on its float form.
PrecisionPlan carriedPlan(const Graph& graph, const std::set<std::string>& int8, const DequantizedModel& imported,
                          bool typed) {
    const std::set<std::string> fp16(imported.fp16Nodes.begin(), imported.fp16Nodes.end());
    std::vector<bool> quantized(graph.nodes().size(), false), float16(graph.nodes().size(), false);
    for (const Node& node : graph.nodes()) {
        quantized[static_cast<size_t>(node.id)] = int8.count(node.name) != 0;
        float16[static_cast<size_t>(node.id)] = fp16.count(node.name) != 0;
    }
    return writtenPrecisions(graph, quantized, float16, typed);
}

// The layers a weakly typed export names as FP32 (kFp32LayersMetadataKey), FP32 in `plan`; an unreadable entry is
// ignored (the builder's --fp16 then decides, as for a file without it).
void pinFp32Layers(const Model& model, const Graph& graph, PrecisionPlan& plan) {
    for (const auto& prop : model.proto().metadata_props()) {
        if (prop.key() != kFp32LayersMetadataKey) continue;
        const nlohmann::json names = nlohmann::json::parse(prop.value(), nullptr, false);
        if (!names.is_array()) return;
        for (const auto& name : names)
            if (name.is_string())
                if (const auto node = graph.findNode(name.get<std::string>()))
                    plan.setRequested(*node, Precision::Fp32);
    }
}

// The float form of a model that carries Q/DQ or float16 islands (carriesPrecisions), with what it carries.
Result<CarriedModel> carriedQdqModel(const Model& model) {
    CarriedModel carried;
    const std::set<std::string> int8 = quantizedNodes(model.graph());
    QL_ASSIGN_OR_RETURN(DequantizedModel imported, dequantizeQdqModel(model));
    const bool typed = !imported.fp16Nodes.empty() || writtenTyping(model) == "strong";
    carried.plan = carriedPlan(imported.model->graph(), int8, imported, typed);
    if (!typed) pinFp32Layers(model, imported.model->graph(), *carried.plan);
    carried.scales = std::move(imported.scales);
    carried.fp16Nodes = imported.fp16Nodes.size();
    carried.model = std::move(imported.model);
    return carried;
}

// The float form of a QOperator model; Q/DQ nodes it also had are read by carriedQdqModel.
Result<CarriedModel> carriedQOperatorModel(const Model& model) {
    QL_ASSIGN_OR_RETURN(QOperatorImport imported, importQOperatorModel(model));
    DequantizedModel& floatModel = imported.imported;
    const std::set<std::string> int8(imported.int8Nodes.begin(), imported.int8Nodes.end());
    CarriedModel carried;
    if (carriesPrecisions(floatModel.model->graph())) {
        QL_ASSIGN_OR_RETURN(carried, carriedQdqModel(*floatModel.model));
        applyCarriedScales(carried.scales, floatModel.scales);
        for (WeightRange& weight : floatModel.scales.weights) carried.scales.weights.push_back(std::move(weight));
        for (const Node& node : carried.model->graph().nodes())
            if (int8.count(node.name)) carried.plan->setRequested(node.id, Precision::Int8);
    } else {
        carried.plan = carriedPlan(floatModel.model->graph(), int8, floatModel, false);
        carried.scales = std::move(floatModel.scales);
        carried.model = std::move(floatModel.model);
    }
    carried.qoperatorImport = qoperatorImportSummary(imported);
    return carried;
}

// The carried form of a model that carries precisions (carriesPrecisions).
Result<CarriedModel> carriedForm(const Model& model) {
    return hasQOperatorNodes(model.graph()) ? carriedQOperatorModel(model) : carriedQdqModel(model);
}

}  // namespace

std::string writtenTyping(const Model& model) {
    for (const auto& prop : model.proto().metadata_props())
        if (prop.key() == kTypingMetadataKey) return prop.value();
    return {};
}

bool carriesPrecisions(const Graph& graph) {
    return hasQdqNodes(graph) || hasFloat16Islands(graph) || hasQOperatorNodes(graph);
}

Result<CarriedModel> carriedModel(std::unique_ptr<Model> model) {
    if (carriesPrecisions(model->graph())) return carriedForm(*model);
    CarriedModel plain;
    plain.model = std::move(model);
    return plain;
}

Result<PrecisionPlan> writtenPlan(const Model& model) {
    const Graph& graph = model.graph();
    if (!carriesPrecisions(graph)) return defaultPrecisionPlan(graph);
    QL_ASSIGN_OR_RETURN(CarriedModel carried, carriedForm(model));
    const Graph& floatGraph = carried.model->graph();
    PrecisionPlan plan(graph, Precision::Fp32);
    for (const Node& node : graph.nodes())
        if (auto same = floatGraph.findNode(node.name); same && carried.plan)
            plan.setRequested(node.id, carried.plan->requested(*same));
    return plan;
}

void applyCarriedScales(CalibrationResult& calibration, const CalibrationResult& carried) {
    std::unordered_map<std::string, size_t> index;
    for (size_t i = 0; i < calibration.activations.size(); ++i) index[calibration.activations[i].name] = i;
    for (const TensorRange& range : carried.activations) {
        auto it = index.find(range.name);
        if (it == index.end()) {
            calibration.activations.push_back(range);
            continue;
        }
        TensorRange& mine = calibration.activations[it->second];
        mine.amax = range.amax;
        mine.amaxByMethod.reset();  // the model's scale is the one in force, whatever the method
    }
}

}  // namespace ql
