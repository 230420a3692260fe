#include "core/export/proto_graph.h"

#include <cstring>
#include <unordered_set>

#include "core/model/tensor_data.h"

namespace ql {

bool isGraphOutput(const onnx::GraphProto& graph, const std::string& name) {
    for (const auto& output : graph.output())
        if (output.name() == name) return true;
    return false;
}

Result<std::vector<float>> readFloatInitializer(const onnx::TensorProto& tensor) {
    if (tensor.data_type() != onnx::TensorProto::FLOAT)
        return invalidArgument("initializer '" + tensor.name() + "' is not FLOAT");
    return tensorAsFloats(tensor);
}

onnx::TensorProto makeFloatTensor(const std::string& name, const std::vector<int64_t>& dims,
                                  const std::vector<float>& values) {
    onnx::TensorProto tensor;
    tensor.set_name(name);
    tensor.set_data_type(onnx::TensorProto::FLOAT);
    for (int64_t d : dims) tensor.add_dims(d);
    std::string raw(values.size() * sizeof(float), '\0');
    if (!values.empty()) std::memcpy(raw.data(), values.data(), raw.size());
    tensor.set_raw_data(std::move(raw));
    return tensor;
}

UniqueNames::UniqueNames(const onnx::GraphProto& graph) {
    for (const auto& node : graph.node())
        for (const auto& output : node.output()) mUsed.insert(output);
    for (const auto& init : graph.initializer()) mUsed.insert(init.name());
    for (const auto& input : graph.input()) mUsed.insert(input.name());
}

ProtoConstants::ProtoConstants(const onnx::GraphProto& graph) : mGraph(graph) {
    for (int i = 0; i < graph.initializer_size(); ++i) mInitializers[graph.initializer(i).name()] = i;
    for (int i = 0; i < graph.node_size(); ++i)
        if (graph.node(i).op_type() == "Constant" && graph.node(i).output_size() == 1)
            mConstantNodes[graph.node(i).output(0)] = i;
}

const onnx::TensorProto* ProtoConstants::find(const std::string& name) {
    if (auto it = mInitializers.find(name); it != mInitializers.end()) return &mGraph.initializer(it->second);
    if (auto it = mDecoded.find(name); it != mDecoded.end()) return &it->second;
    auto node = mConstantNodes.find(name);
    if (node == mConstantNodes.end()) return nullptr;
    auto tensor = constantNodeTensor(mGraph.node(node->second));
    if (!tensor) return nullptr;
    const auto [slot, inserted] = mDecoded.insert_or_assign(name, std::move(*tensor));
    return &slot->second;
}

std::string UniqueNames::make(const std::string& base) {
    std::string name = base;
    for (int i = 1; mUsed.count(name) != 0; ++i) name = base + "_" + std::to_string(i);
    mUsed.insert(name);
    return name;
}

namespace {

// Every name a node input (here or in a nested subgraph) or a graph output refers to.
void collectReferences(const onnx::GraphProto& graph, std::unordered_set<std::string>& names) {
    for (const auto& node : graph.node()) {
        for (const auto& input : node.input()) names.insert(input);
        for (const auto& attr : node.attribute()) {
            if (attr.has_g()) collectReferences(attr.g(), names);
            for (const auto& g : attr.graphs()) collectReferences(g, names);
        }
    }
    for (const auto& output : graph.output()) names.insert(output.name());
}

template <typename T, typename Keep>
void keepIf(google::protobuf::RepeatedPtrField<T>& items, const Keep& keep) {
    google::protobuf::RepeatedPtrField<T> kept;
    for (auto& item : items)
        if (keep(item)) *kept.Add() = std::move(item);
    items.Swap(&kept);
}

}  // namespace

onnx::AttributeProto* graphAttribute(onnx::GraphProto& graph, const std::string& node, const std::string& attribute) {
    for (onnx::NodeProto& n : *graph.mutable_node()) {
        if (n.name() != node) continue;
        for (onnx::AttributeProto& a : *n.mutable_attribute())
            if (a.name() == attribute && a.has_g()) return &a;
    }
    return nullptr;
}

void removeUnusedInitializers(onnx::GraphProto& graph) {
    std::unordered_set<std::string> referenced;
    collectReferences(graph, referenced);
    for (const auto& input : graph.input()) referenced.insert(input.name());  // overridable: kept
    keepIf(*graph.mutable_initializer(), [&](const onnx::TensorProto& t) { return referenced.count(t.name()) != 0; });
    std::unordered_set<std::string> produced;
    for (const auto& node : graph.node())
        for (const auto& output : node.output()) produced.insert(output);
    for (const auto& init : graph.initializer()) produced.insert(init.name());
    keepIf(*graph.mutable_value_info(), [&](const onnx::ValueInfoProto& v) { return produced.count(v.name()) != 0; });
}

}  // namespace ql
