#include "core/export/body_export.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "core/export/graph_preparation.h"
#include "core/export/proto_graph.h"
#include "core/export/written_graph.h"
#include "core/model/subgraph_model.h"
#include "core/quant/body_calibration.h"

namespace ql {
namespace {

// Every name a graph defines (inputs, initializers, node outputs), its nested bodies' too.
void collectDefinedNames(const onnx::GraphProto& graph, std::unordered_set<std::string>& names) {
    for (const auto& input : graph.input()) names.insert(input.name());
    for (const auto& initializer : graph.initializer()) names.insert(initializer.name());
    for (const auto& node : graph.node()) {
        for (const auto& output : node.output()) names.insert(output);
        for (const auto& attribute : node.attribute())
            if (attribute.has_g()) collectDefinedNames(attribute.g(), names);
    }
}

void renameValues(onnx::GraphProto& graph, const std::unordered_map<std::string, std::string>& renamed) {
    const auto rename = [&](std::string* name) {
        if (auto it = renamed.find(*name); it != renamed.end()) *name = it->second;
    };
    for (auto& info : *graph.mutable_input()) rename(info.mutable_name());
    for (auto& info : *graph.mutable_output()) rename(info.mutable_name());
    for (auto& info : *graph.mutable_value_info()) rename(info.mutable_name());
    for (auto& initializer : *graph.mutable_initializer()) rename(initializer.mutable_name());
    for (auto& node : *graph.mutable_node()) {
        for (auto& input : *node.mutable_input()) rename(&input);
        for (auto& output : *node.mutable_output()) rename(&output);
        for (auto& attribute : *node.mutable_attribute())
            if (attribute.has_g()) renameValues(*attribute.mutable_g(), renamed);
    }
}

// The written body as the attribute holds it: its own inputs only (the body's model adds the outer-scope values it
// reads as inputs after them); the names its export made (Q/DQ outputs, float16 copies) renamed where the enclosing
// model already uses them (ONNX names are unique across a model and its bodies); the opsets the body's export
// needed raised in the enclosing model too.
void spliceBody(const onnx::ModelProto& written, const onnx::GraphProto& original, const std::string& where,
                onnx::AttributeProto& attribute, onnx::ModelProto& outer) {
    onnx::GraphProto body = written.graph();
    while (body.input_size() > original.input_size()) body.mutable_input()->RemoveLast();
    attribute.mutable_g()->Clear();
    std::unordered_set<std::string> taken, originalNames;
    collectDefinedNames(outer.graph(), taken);
    collectDefinedNames(original, originalNames);
    std::unordered_set<std::string> made;
    collectDefinedNames(body, made);
    std::unordered_map<std::string, std::string> renamed;
    for (const std::string& name : made) {
        if (originalNames.contains(name) || !taken.contains(name)) continue;
        std::string unique = name + "_" + where;
        for (int i = 2; taken.contains(unique) || made.contains(unique); ++i)
            unique = name + "_" + where + "_" + std::to_string(i);
        taken.insert(unique);
        renamed[name] = unique;
    }
    if (!renamed.empty()) renameValues(body, renamed);
    *attribute.mutable_g() = std::move(body);
    for (const auto& imported : written.opset_import()) {
        auto own = std::find_if(outer.mutable_opset_import()->begin(), outer.mutable_opset_import()->end(),
                                [&](const auto& o) { return o.domain() == imported.domain(); });
        if (own == outer.mutable_opset_import()->end())
            *outer.add_opset_import() = imported;
        else
            own->set_version(std::max(own->version(), imported.version()));
    }
}

}  // namespace

Status exportBodies(const Model& model, const PrecisionPlan& plan, const CalibrationResult& calibration,
                    const QdqOptions& options, const ExportTarget& target, QdqExport& result) {
    const Graph& graph = model.graph();
    for (const BodyPlan& planned : plan.bodies()) {
        if (!quantizesBody(planned.plan)) continue;
        const std::optional<NodeId> id = graph.findNode(planned.node);
        if (!id)
            return notFound(model.fileName() + ": the plan has a body of node '" + planned.node +
                            "', which the model does not have");
        const Node& node = graph.node(*id);
        const auto where = [&](const Status& status) {
            return Status(
                status.code(),
                model.fileName() + ": " + nodeErrorMessage(node, "in " + planned.attribute + ": " + status.message()));
        };
        auto body = buildSubgraphModel(graph, node, planned.attribute, OuterInitializers::Copied);
        if (!body) return body.status();
        std::string bytes;
        body->model->SerializeToString(&bytes);
        auto bodyModel = Model::loadFromBytes(std::as_bytes(std::span(bytes.data(), bytes.size())),
                                              node.name + "/" + planned.attribute);
        if (!bodyModel) return where(bodyModel.status());
        const CalibrationResult bodyRanges =
            bodyCalibration(calibration, (*bodyModel)->graph(), planned.node, planned.attribute);
        // Its formal inputs and outputs stay float32: the control-flow node reads and writes float32 around it.
        auto exported = exportQdq(**bodyModel, planned.plan, bodyRanges, options, {.trt = target.trt, .fp16Io = false});
        if (!exported) return where(exported.status());
        onnx::AttributeProto* attribute =
            graphAttribute(*result.proto.mutable_graph(), planned.node, planned.attribute);
        if (attribute == nullptr)
            return internalError(model.fileName() + ": " +
                                 nodeErrorMessage(node, "the written model lost its " + planned.attribute));
        spliceBody(exported->proto, node.attribute(planned.attribute)->g(), planned.node + "_" + planned.attribute,
                   *attribute, result.proto);
        result.bodies.push_back(
            {planned.node, planned.attribute, std::make_unique<QdqExport>(std::move(exported).value())});
    }
    if (result.bodies.empty()) return Status::ok();
    // A weight the bodies now carry as their own (quantized) copies is read by nothing in the enclosing graph.
    removeUnusedInitializers(*result.proto.mutable_graph());
    return checkWrittenModel(result.proto, checkerError(model).empty()).withContext(model.fileName());
}

}  // namespace ql
