#include "core/export/opset_shapes.h"

#include <unordered_map>

#include "core/exec/observed_shapes.h"
#include "core/model/op_roles.h"

namespace ql {
namespace {

// Softmax, LogSoftmax and Hardmax before opset 13: the adapter to 13 needs the input's rank.
bool isOldSoftmax(const Graph& graph, const Node& node) {
    return isDefaultDomain(node) && graph.opsetVersion("") < 13 &&
           (node.opType == "Softmax" || node.opType == "LogSoftmax" || node.opType == "Hardmax");
}

bool adapterReadsRank(const Graph& graph, const Node& node) {
    if (isOldSoftmax(graph, node)) return true;
    return isDefaultDomain(node) && node.opType == "Resize" && graph.opsetVersion("") < 11;
}

// A dim is fixed when both runs saw it (the second one, with the open input dims at 2, may be missing: a model
// whose "dynamic" axis only takes 1; then every dim is taken as open, the rank is what the converter needs most).
onnx::ValueInfoProto valueInfo(const std::string& name, const ObservedTensor& seen, const Shape* second) {
    const Shape& first = seen.shape;
    onnx::ValueInfoProto info;
    info.set_name(name);
    auto* tensor = info.mutable_type()->mutable_tensor_type();
    tensor->set_elem_type(static_cast<int32_t>(seen.dtype));
    auto* shape = tensor->mutable_shape();
    for (size_t i = 0; i < first.size(); ++i) {
        auto* dim = shape->add_dim();
        if (second && second->size() == first.size() && (*second)[i] == first[i])
            dim->set_dim_value(first[i]);
        else
            dim->set_dim_param(name + "_dim" + std::to_string(i));
    }
    return info;
}

void setValueInfo(onnx::GraphProto& graph, onnx::ValueInfoProto info) {
    for (auto& existing : *graph.mutable_value_info()) {
        if (existing.name() != info.name()) continue;
        existing = std::move(info);
        return;
    }
    *graph.add_value_info() = std::move(info);
}

// The converter writes the input shape of a Softmax whose axis is not the last into a Reshape: one open dim
// becomes -1, two cannot be written.
Status checkSoftmaxAxes(const Graph& graph, const onnx::GraphProto& proto) {
    std::unordered_map<std::string, const onnx::TypeProto*> types;
    for (const auto& info : proto.value_info()) types[info.name()] = &info.type();
    for (const auto& input : proto.input()) types[input.name()] = &input.type();
    for (const Node& node : graph.nodes()) {
        if (!isOldSoftmax(graph, node) || node.inputs.empty() || node.inputs[0] == kNoId) continue;
        const auto it = types.find(graph.value(node.inputs[0]).name);
        if (it == types.end() || !it->second->tensor_type().has_shape()) continue;
        const auto& dims = it->second->tensor_type().shape().dim();
        const int64_t rank = dims.size();
        int64_t axis = node.intAttribute("axis", 1);
        if (axis < 0) axis += rank;
        int open = 0;
        for (const auto& d : dims) open += d.has_dim_value() ? 0 : 1;
        if (axis == rank - 1 || open <= 1) continue;
        return unsupported(nodeErrorMessage(
            node, "its axis " + std::to_string(axis) + " is not the last of a rank-" + std::to_string(rank) +
                      " input with " + std::to_string(open) +
                      " dynamic dimensions; ONNX's opset 13 converter can only write one of them. Export the model "
                      "at opset 13 or later, or with fixed input dimensions"));
    }
    return Status::ok();
}

}  // namespace

bool opsetRaiseNeedsShapes(const Graph& graph) {
    for (const Node& node : graph.nodes()) {
        if (!adapterReadsRank(graph, node) || node.inputs.empty() || node.inputs[0] == kNoId) continue;
        if (!graph.value(node.inputs[0]).type.hasShape) return true;
    }
    return false;
}

Status addObservedShapes(const Model& model, onnx::ModelProto& proto, const KnownInputShapes& known) {
    const Graph& graph = model.graph();
    if (opsetRaiseNeedsShapes(graph)) {
        std::vector<bool> wanted(graph.values().size(), false);
        // Graph outputs keep their declarations (value_info is for the tensors in between).
        for (size_t i = 0; i < graph.values().size(); ++i) {
            const Value& value = graph.values()[i];
            wanted[i] = !value.type.hasShape && value.producer != kNoId && !value.isGraphOutput;
        }
        auto first = observeTensors(graph, wanted, 1, 1, known);
        if (!first)
            return first.status().withContext(
                "shape inference did not find the shapes the opset 13 converter needs, and running the model on "
                "seeded inputs to see them failed");
        Result<ObservedTensors> second =
            hasOpenInputDims(graph) ? observeTensors(graph, wanted, 2, 1, known) : Result<ObservedTensors>(*first);
        for (const auto& [id, seen] : *first) {
            const Shape* other = nullptr;
            if (second)
                if (auto it = second->find(id); it != second->end()) other = &it->second.shape;
            setValueInfo(*proto.mutable_graph(), valueInfo(graph.value(id).name, seen, other));
        }
    }
    return checkSoftmaxAxes(graph, proto.graph());
}

}  // namespace ql
