#include "core/model/constant_values.h"

#include <onnx/onnx_pb.h>

#include "core/model/tensor_data.h"

namespace ql {

namespace {

const Node* constantProducer(const Graph& graph, ValueId id) {
    if (id == kNoId) return nullptr;
    const NodeId producer = graph.value(id).producer;
    if (producer == kNoId) return nullptr;
    const Node& node = graph.node(producer);
    return node.opType == "Constant" && node.domain.empty() ? &node : nullptr;
}

template <typename T, typename Convert>
std::optional<std::vector<T>> readConstant(const Graph& graph, ValueId id, Convert convert) {
    if (const Initializer* init = graph.initializerOf(id)) {
        auto bytes = tensorBytes(*init);
        if (!bytes) return std::nullopt;
        return convert(*bytes, init->dtype);
    }
    if (const Node* node = constantProducer(graph, id)) {
        auto tensor = constantNodeTensor(*node->proto);
        if (!tensor) return std::nullopt;
        auto bytes = tensorBytes(*tensor);
        if (!bytes) return std::nullopt;
        return convert(*bytes, dataTypeFromOnnx(tensor->data_type()));
    }
    return std::nullopt;
}

}  // namespace

bool isConstant(const Graph& graph, ValueId id) {
    return graph.initializerOf(id) != nullptr || constantProducer(graph, id) != nullptr;
}

std::optional<std::vector<float>> constantFloats(const Graph& graph, ValueId id) {
    return readConstant<float>(graph, id, bytesAsFloats);
}

std::optional<std::vector<int64_t>> constantInt64s(const Graph& graph, ValueId id) {
    return readConstant<int64_t>(graph, id, bytesAsInt64s);
}

DataType constantDataType(const Graph& graph, ValueId id) {
    return dataTypeFromOnnx(constantOnnxType(graph, id));
}

int32_t constantOnnxType(const Graph& graph, ValueId id) {
    if (const Initializer* init = graph.initializerOf(id))
        return init->proto != nullptr ? init->proto->data_type() : static_cast<int32_t>(init->dtype);
    if (const Node* node = constantProducer(graph, id)) {
        auto tensor = constantNodeTensor(*node->proto);
        if (tensor) return tensor->data_type();
    }
    return 0;
}

}  // namespace ql
