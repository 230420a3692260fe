#include "core/export/carried_model.h"

#include <algorithm>
#include <array>
#include <set>
#include <string_view>
#include <unordered_map>

#include "core/export/qoperator_import.h"
#include "core/model/fp16_form.h"
#include "core/quant/default_placement.h"

namespace ql {
namespace {

// Ops the Q/DQ placement gives edges of their own when INT8: planned INT8 without a DequantizeLinear in the model,
// they would gain one in the simulation.
bool placementQuantizes(const Node& node) {
    constexpr std::array<std::string_view, 10> ops = {"Conv",          "ConvTranspose", "Gemm",    "MatMul",
                                                      "Add",           "AveragePool",   "MaxPool", "GlobalAveragePool",
                                                      "GlobalMaxPool", "Concat"};
    return std::find(ops.begin(), ops.end(), node.opType) != ops.end();
}

// The names of the nodes a DequantizeLinear feeds in `qdq`.
std::set<std::string> quantizedNodes(const Graph& qdq) {
    std::set<std::string> names;
    for (const QdqLink& link : qdq.qdqLinks())
        if (link.layer != kNoId) names.insert(qdq.node(link.layer).name);
    return names;
}

PrecisionPlan carriedPlan(const Graph& graph, const std::set<std::string>& int8, const DequantizedModel& imported,
                          bool typed) {
    const PrecisionPlan placement = defaultPrecisionPlan(graph);
    const std::set<std::string> fp16(imported.fp16Nodes.begin(), imported.fp16Nodes.end());
    PrecisionPlan plan(graph, Precision::Fp32);
    for (const Node& node : graph.nodes()) {
        if (int8.count(node.name)) {
            plan.setRequested(node.id, Precision::Int8);
        } else if (fp16.count(node.name)) {
            plan.setRequested(node.id, Precision::Fp16);
        } else if (placement.requested(node.id) == Precision::Int8 && !placementQuantizes(node)) {
            plan.setRequested(node.id, Precision::Int8);  // a fused epilogue: no Q/DQ of its own
        } else if (computesFloat(graph, node)) {
            plan.setRequested(node.id, typed ? Precision::Fp32 : Precision::Fp16);
        }
    }
    return plan;
}

Result<CarriedModel> carriedQdqModel(std::unique_ptr<Model> model) {
    CarriedModel carried;
    if (!carriesPrecisions(model->graph())) {
        carried.model = std::move(model);
        return carried;
    }
    const std::set<std::string> int8 = quantizedNodes(model->graph());
    QL_ASSIGN_OR_RETURN(DequantizedModel imported, dequantizeQdqModel(*model));
    const bool typed = !imported.fp16Nodes.empty();
    carried.plan = carriedPlan(imported.model->graph(), int8, imported, typed);
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
        QL_ASSIGN_OR_RETURN(carried, carriedQdqModel(std::move(floatModel.model)));
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

}  // namespace

bool carriesPrecisions(const Graph& graph) {
    return hasQdqNodes(graph) || hasFloat16Islands(graph) || hasQOperatorNodes(graph);
}

Result<CarriedModel> carriedModel(std::unique_ptr<Model> model) {
    if (hasQOperatorNodes(model->graph())) return carriedQOperatorModel(*model);
    return carriedQdqModel(std::move(model));
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
