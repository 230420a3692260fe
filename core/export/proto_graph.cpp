#include "core/export/proto_graph.h"

#include <cstring>
#include <unordered_set>

#include "core/model/tensor_data.h"

namespace ql {

onnx::TensorProto* findInitializer(onnx::GraphProto& graph, const std::string& name) {
    for (auto& init : *graph.mutable_initializer())
        if (init.name() == name) return &init;
    return nullptr;
}

bool isOverridable(const onnx::GraphProto& graph, const std::string& name) {
    for (const auto& input : graph.input())
        if (input.name() == name) return true;
    return false;
}

bool isGraphOutput(const onnx::GraphProto& graph, const std::string& name) {
    for (const auto& output : graph.output())
        if (output.name() == name) return true;
    return false;
}

namespace {

int nodeReferences(const onnx::GraphProto& graph, const std::string& name) {
    int count = 0;
    for (const auto& node : graph.node()) {
        for (const auto& input : node.input())
            if (input == name) ++count;
        for (const auto& attr : node.attribute()) {
            if (attr.has_g()) count += referenceCount(attr.g(), name);
            for (const auto& g : attr.graphs()) count += referenceCount(g, name);
        }
    }
    return count;
}

}  // namespace

int referenceCount(const onnx::GraphProto& graph, const std::string& name) {
    return nodeReferences(graph, name) + (isGraphOutput(graph, name) ? 1 : 0);
}

int producerIndex(const onnx::GraphProto& graph, const std::string& name) {
    for (int i = 0; i < graph.node_size(); ++i)
        for (const auto& output : graph.node(i).output())
            if (output == name) return i;
    return -1;
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

std::string uniqueValueName(const onnx::GraphProto& graph, const std::string& base) {
    std::unordered_set<std::string> used;
    for (const auto& node : graph.node())
        for (const auto& output : node.output()) used.insert(output);
    for (const auto& init : graph.initializer()) used.insert(init.name());
    for (const auto& input : graph.input()) used.insert(input.name());
    std::string name = base;
    for (int i = 1; used.count(name) != 0; ++i) name = base + "_" + std::to_string(i);
    return name;
}

void removeUnusedInitializers(onnx::GraphProto& graph) {
    auto* inits = graph.mutable_initializer();
    for (int i = inits->size() - 1; i >= 0; --i)
        if (!isOverridable(graph, inits->Get(i).name()) && referenceCount(graph, inits->Get(i).name()) == 0)
            inits->DeleteSubrange(i, 1);
    std::unordered_set<std::string> produced;
    for (const auto& node : graph.node())
        for (const auto& output : node.output()) produced.insert(output);
    for (const auto& init : graph.initializer()) produced.insert(init.name());
    auto* infos = graph.mutable_value_info();
    for (int i = infos->size() - 1; i >= 0; --i)
        if (produced.count(infos->Get(i).name()) == 0) infos->DeleteSubrange(i, 1);
}

}  // namespace ql
