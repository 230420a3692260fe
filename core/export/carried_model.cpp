#include "core/export/carried_model.h"

#include <onnx/onnx_pb.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>
#include <unordered_map>

#include "core/export/graph_preparation.h"
#include "core/export/proto_graph.h"
#include "core/export/qoperator_import.h"
#include "core/model/body_path.h"
#include "core/model/fp16_form.h"
#include "core/model/subgraph_model.h"
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
    for (const std::string& name : writtenFp32Layers(model))
        if (const auto node = graph.findNode(name)) plan.setRequested(*node, Precision::Fp32);
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

Result<CarriedModel> carriedForm(const Model& model);

// The body in `attribute` of `node` (a node of `outer`) as a model of its own, the weights it reads from enclosing
// graphs copied in, with what the file says of the whole model: its typing and the FP32 layers named under the
// body's path, by their names in the body.
Result<std::unique_ptr<Model>> bodyAsModel(const Model& file, const Graph& outer, const Node& node,
                                           const std::string& attribute) {
    QL_ASSIGN_OR_RETURN(SubgraphModel body, buildSubgraphModel(outer, node, attribute, OuterInitializers::Copied));
    const std::string typing = writtenTyping(file);
    if (!typing.empty()) recordMetadata(*body.model, kTypingMetadataKey, typing);
    const std::string path = bodyPathStep(node.name, attribute);
    nlohmann::json pinned = nlohmann::json::array();
    for (const std::string& name : writtenFp32Layers(file))
        if (name.size() > path.size() && name.compare(0, path.size(), path) == 0)
            pinned.push_back(name.substr(path.size()));
    if (!pinned.empty()) recordMetadata(*body.model, kFp32LayersMetadataKey, pinned.dump());
    std::string bytes;
    if (!body.model->SerializeToString(&bytes))
        return unsupported(file.fileName() + ": the body " + path + " exceeds the 2 GB protobuf limit");
    return Model::loadFromBytes(std::as_bytes(std::span(bytes.data(), bytes.size())), node.name + "/" + attribute);
}

// `floatBody` (a body's model, made float) written in `attribute` in place of the body it came from: its formal
// inputs only, and without the copies of the enclosing graph's initializers (bodyAsModel copied them in).
void replaceBody(const onnx::GraphProto& floatBody, const onnx::GraphProto& enclosing,
                 onnx::AttributeProto& attribute) {
    const int formalInputs = attribute.g().input_size();
    std::set<std::string> outerInitializers;
    for (const auto& initializer : enclosing.initializer()) outerInitializers.insert(initializer.name());
    onnx::GraphProto body = floatBody;
    while (body.input_size() > formalInputs) body.mutable_input()->RemoveLast();
    auto* initializers = body.mutable_initializer();
    for (int i = initializers->size() - 1; i >= 0; --i)
        if (outerInitializers.count(initializers->Get(i).name())) initializers->DeleteSubrange(i, 1);
    *attribute.mutable_g() = std::move(body);
}

// A body's carried scales under its path in `scales`: its own tensors (and its nested bodies') as subgraph ranges,
// the values it reads from enclosing graphs (`outerScope`) as activations there (bodyCalibration reads them back so).
void addBodyScales(const CalibrationResult& body, const std::set<std::string>& outerScope, const std::string& path,
                   CalibrationResult& scales) {
    for (const TensorRange& range : body.activations) {
        if (outerScope.count(range.name)) {
            if (scales.activation(range.name) == nullptr) scales.activations.push_back(range);
            continue;
        }
        TensorRange inner = range;
        inner.name = path + range.name;
        scales.subgraphActivations.push_back(std::move(inner));
    }
    for (TensorRange range : body.subgraphActivations) {
        range.name = path + range.name;
        scales.subgraphActivations.push_back(std::move(range));
    }
}

// The bodies of `carried.model` (the float form of `file`'s main graph) that carry precisions of their own (or FP32
// pins), made float too: each read as a model (carriedForm, so nested bodies likewise), written back in place of the
// Q/DQ or float16 body, its plan the body's plan of `carried.plan` and its scales under its path.
Status carryBodies(const Model& file, CarriedModel& carried) {
    struct CarriedBody {
        std::string node, attribute;
        CarriedModel body;
    };
    std::vector<CarriedBody> bodies;
    const Graph& graph = carried.model->graph();
    for (const Node& node : graph.nodes())
        for (const SubgraphInfo& subgraph : node.subgraphs) {
            // A body that is not a valid graph stays as it is: the ONNX checker's diagnostics (inspect) name it.
            auto model = bodyAsModel(file, graph, node, subgraph.attribute);
            if (!model) continue;
            // A weakly typed body may carry no Q/DQ and still name the layers its script pins FP32.
            if (!carriesPrecisions((*model)->graph()) && writtenFp32Layers(**model).empty()) continue;
            auto body = carriedForm(**model);
            if (!body)
                return body.status().withContext(file.fileName() + ": in " +
                                                 bodyPathStep(node.name, subgraph.attribute));
            bodies.push_back({node.name, subgraph.attribute, std::move(body).value()});
        }
    if (bodies.empty()) return Status::ok();
    onnx::ModelProto proto = carried.model->proto();
    for (CarriedBody& carriedBody : bodies) {
        onnx::AttributeProto* attribute =
            graphAttribute(*proto.mutable_graph(), carriedBody.node, carriedBody.attribute);
        if (attribute == nullptr)
            return internalError(file.fileName() + ": node '" + carriedBody.node + "' lost its " +
                                 carriedBody.attribute);
        replaceBody(carriedBody.body.model->proto().graph(), proto.graph(), *attribute);
    }
    QL_ASSIGN_OR_RETURN(auto floatModel, reloadModel(proto, *carried.model));
    const Graph& floatGraph = floatModel->graph();
    for (CarriedBody& carriedBody : bodies) {
        const Node& node = floatGraph.node(*floatGraph.findNode(carriedBody.node));
        QL_ASSIGN_OR_RETURN(const SubgraphModel body, buildSubgraphModel(floatGraph, node, carriedBody.attribute));
        const Graph& read = carriedBody.body.model->graph();
        if (!carriedBody.body.plan || body.graph.nodes().size() != read.nodes().size())
            return internalError(file.fileName() + ": the float form of " +
                                 bodyPathStep(carriedBody.node, carriedBody.attribute) + " lost nodes");
        carried.plan->ensureBody(carriedBody.node, carriedBody.attribute, body.graph) = *carriedBody.body.plan;
        const auto outer = outerScopeNames(node.attribute(carriedBody.attribute)->g());
        addBodyScales(carriedBody.body.scales, {outer.begin(), outer.end()},
                      bodyPathStep(carriedBody.node, carriedBody.attribute), carried.scales);
        carried.fp16Nodes += carriedBody.body.fp16Nodes;
    }
    carried.model = std::move(floatModel);
    return Status::ok();
}

// The carried form of a model that carries precisions (carriesPrecisions), its bodies' included.
Result<CarriedModel> carriedForm(const Model& model) {
    QL_ASSIGN_OR_RETURN(CarriedModel carried,
                        hasQOperatorNodes(model.graph()) ? carriedQOperatorModel(model) : carriedQdqModel(model));
    QL_RETURN_IF_ERROR(carryBodies(model, carried));
    return carried;
}

// `carried` (a plan over `floatGraph`, the float form) on `graph`, the file's own (Q/DQ nodes, Casts and all): each
// node the precision of the node of that name, the rest FP32; the bodies likewise, over the file's bodies.
Result<PrecisionPlan> planByName(const Graph& graph, const Graph& floatGraph, const PrecisionPlan& carried) {
    PrecisionPlan plan(graph, Precision::Fp32);
    for (const Node& node : graph.nodes())
        if (auto same = floatGraph.findNode(node.name)) plan.setRequested(node.id, carried.requested(*same));
    for (const BodyPlan& planned : carried.bodies()) {
        const auto node = graph.findNode(planned.node), floatNode = floatGraph.findNode(planned.node);
        if (!node || !floatNode) continue;
        QL_ASSIGN_OR_RETURN(const SubgraphModel body, buildSubgraphModel(graph, graph.node(*node), planned.attribute));
        QL_ASSIGN_OR_RETURN(const SubgraphModel floatBody,
                            buildSubgraphModel(floatGraph, floatGraph.node(*floatNode), planned.attribute));
        QL_ASSIGN_OR_RETURN(plan.ensureBody(planned.node, planned.attribute, body.graph),
                            planByName(body.graph, floatBody.graph, planned.plan));
    }
    return plan;
}

}  // namespace

void recordMetadata(onnx::ModelProto& proto, const char* key, const std::string& value) {
    auto* props = proto.mutable_metadata_props();
    for (int i = props->size() - 1; i >= 0; --i)
        if (props->Get(i).key() == key) props->DeleteSubrange(i, 1);
    auto* prop = proto.add_metadata_props();
    prop->set_key(key);
    prop->set_value(value);
}

std::vector<std::string> writtenFp32Layers(const Model& model) {
    std::vector<std::string> layers;
    for (const auto& prop : model.proto().metadata_props()) {
        if (prop.key() != kFp32LayersMetadataKey) continue;
        const nlohmann::json names = nlohmann::json::parse(prop.value(), nullptr, false);
        if (!names.is_array()) return {};
        for (const auto& name : names)
            if (name.is_string()) layers.push_back(name.get<std::string>());
    }
    return layers;
}

std::string writtenTyping(const Model& model) {
    for (const auto& prop : model.proto().metadata_props())
        if (prop.key() == kTypingMetadataKey) return prop.value();
    return {};
}

bool carriesPrecisions(const Graph& graph) {
    if (hasQdqNodes(graph) || hasFloat16Islands(graph) || hasQOperatorNodes(graph)) return true;
    for (const Node& node : graph.nodes())
        for (const SubgraphInfo& subgraph : node.subgraphs) {
            auto body = buildSubgraphModel(graph, node, subgraph.attribute);
            if (body && carriesPrecisions(body->graph)) return true;
        }
    return false;
}

bool carriesPrecisions(const Model& model) {
    return !writtenTyping(model).empty() || carriesPrecisions(model.graph());
}

Result<CarriedModel> carriedModel(std::unique_ptr<Model> model) {
    if (carriesPrecisions(*model)) return carriedForm(*model);
    CarriedModel plain;
    plain.model = std::move(model);
    return plain;
}

Result<PrecisionPlan> writtenPlan(const Model& model) {
    const Graph& graph = model.graph();
    if (!carriesPrecisions(model)) return defaultPrecisionPlan(graph);
    QL_ASSIGN_OR_RETURN(CarriedModel carried, carriedForm(model));
    return planByName(graph, carried.model->graph(), *carried.plan);
}

namespace {

// `ranges` with the carried amax over the ones of the same name; the ones it lacks are added.
void applyRanges(std::vector<TensorRange>& ranges, const std::vector<TensorRange>& carried) {
    std::unordered_map<std::string, size_t> index;
    for (size_t i = 0; i < ranges.size(); ++i) index[ranges[i].name] = i;
    for (const TensorRange& range : carried) {
        auto it = index.find(range.name);
        if (it == index.end()) {
            ranges.push_back(range);
            continue;
        }
        TensorRange& mine = ranges[it->second];
        mine.amax = range.amax;
        mine.amaxByMethod.reset();  // the model's scale is the one in force, whatever the method
    }
}

}  // namespace

void applyCarriedScales(CalibrationResult& calibration, const CalibrationResult& carried) {
    applyRanges(calibration.activations, carried.activations);
    applyRanges(calibration.subgraphActivations, carried.subgraphActivations);
}

}  // namespace ql
