#include "core/export/qdq_writer.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <optional>
#include <unordered_map>

#include "core/exec/kernels/quantize_math.h"
#include "core/exec/tensor_proto.h"
#include "core/export/graph_preparation.h"
#include "core/export/proto_graph.h"
#include "core/export/written_graph.h"

namespace ql {
namespace {

onnx::TensorProto makeInt8Tensor(const std::string& name, const std::vector<int64_t>& dims,
                                 const std::vector<int8_t>& values) {
    onnx::TensorProto tensor;
    tensor.set_name(name);
    tensor.set_data_type(onnx::TensorProto::INT8);
    for (int64_t d : dims) tensor.add_dims(d);
    tensor.set_raw_data(std::string(reinterpret_cast<const char*>(values.data()), values.size()));
    return tensor;
}

// Symmetric INT8 levels of a float weight, one scale per slice along `axis` (or one for all).
Result<std::vector<int8_t>> quantizeWeight(const onnx::TensorProto& weight, const QdqEdge& edge) {
    QL_ASSIGN_OR_RETURN(Tensor tensor, tensorFromProto(weight));
    const auto values = tensor.toFloats();
    int64_t inner = 1, channels = 1;
    if (edge.scales.size() > 1) {
        channels = tensor.dim(static_cast<size_t>(edge.axis));
        for (size_t d = static_cast<size_t>(edge.axis) + 1; d < tensor.rank(); ++d) inner *= tensor.dim(d);
    }
    std::vector<int8_t> levels(values.size());
    for (size_t i = 0; i < values.size(); ++i) {
        const float scale = edge.scales[static_cast<size_t>((static_cast<int64_t>(i) / inner) % channels)];
        levels[i] = static_cast<int8_t>(quantizeLevel(values[i], scale, 0.0f, -128.0f, 127.0f));
    }
    return levels;
}

class QdqEditor {
public:
    QdqEditor(onnx::GraphProto& graph, const QdqOptions& options, UniqueNames& names)
        : mGraph(graph), mOptions(options), mNames(names) {
        for (int i = 0; i < graph.initializer_size(); ++i) mInitializers[graph.initializer(i).name()] = i;
    }

    // The dequantized tensor name for an edge, creating its nodes (appended to `nodes`) on first use.
    Result<std::string> dequantized(const std::string& tensor, const QdqEdge& edge,
                                    std::vector<onnx::NodeProto>& nodes) {
        const std::string key = tensor + (edge.weight ? "#weight" + std::to_string(edge.axis) : "");
        if (auto it = mDone.find(key); it != mDone.end()) return it->second;
        const std::vector<int64_t> dims = edge.scales.size() > 1
                                              ? std::vector<int64_t>{static_cast<int64_t>(edge.scales.size())}
                                              : std::vector<int64_t>{};
        const std::string scale = addInitializer(makeFloatTensor(unique(tensor + "_scale"), dims, edge.scales));
        const std::string zero = addInitializer(
            makeInt8Tensor(unique(tensor + "_zero_point"), dims, std::vector<int8_t>(edge.scales.size(), 0)));
        std::string quantized;
        if (edge.weight && mOptions.int8Weights) {
            const auto it = mInitializers.find(tensor);
            const auto* weight = it == mInitializers.end() ? nullptr : &mGraph.initializer(it->second);
            if (!weight) return internalError("weight '" + tensor + "' not found in the exported copy");
            QL_ASSIGN_OR_RETURN(auto levels, quantizeWeight(*weight, edge));
            quantized = addInitializer(
                makeInt8Tensor(unique(tensor + "_quantized"), {weight->dims().begin(), weight->dims().end()}, levels));
        } else {
            quantized = unique(tensor + "_quantized");
            nodes.push_back(qdqNode("QuantizeLinear", {tensor, scale, zero}, quantized, edge.axis));
        }
        const std::string output = unique(tensor + "_dequantized");
        nodes.push_back(qdqNode("DequantizeLinear", {quantized, scale, zero}, output, edge.axis));
        mDone[key] = output;
        return output;
    }

private:
    std::string unique(const std::string& base) { return mNames.make(base); }

    std::string addInitializer(onnx::TensorProto tensor) {
        *mGraph.add_initializer() = std::move(tensor);
        return mGraph.initializer(mGraph.initializer_size() - 1).name();
    }

    // Nodes are named after the (unique) tensor they write, e.g. "conv1.weight_dequantized".
    static onnx::NodeProto qdqNode(const std::string& op, const std::vector<std::string>& inputs, const std::string& y,
                                   int64_t axis) {
        onnx::NodeProto node;
        node.set_op_type(op);
        node.set_name(y);
        for (const auto& input : inputs) node.add_input(input);
        node.add_output(y);
        auto* attr = node.add_attribute();
        attr->set_name("axis");
        attr->set_type(onnx::AttributeProto::INT);
        attr->set_i(axis);
        return node;
    }

    onnx::GraphProto& mGraph;
    const QdqOptions& mOptions;
    UniqueNames& mNames;                                 // every value name, including the ones made here
    std::unordered_map<std::string, int> mInitializers;  // the prepared model's, by name
    std::map<std::string, std::string> mDone;
};

}  // namespace

Result<onnx::ModelProto> writeQdq(const Model& prepared, const QdqPlacement& placement, const QdqOptions& options,
                                  const Fp16Islands& islands, Fp16IslandStats* stats) {
    QL_ASSIGN_OR_RETURN(auto proto, selfContainedProto(prepared));
    auto& graph = *proto.mutable_graph();
    std::map<const onnx::NodeProto*, int> indexOf;
    for (int i = 0; i < prepared.proto().graph().node_size(); ++i) indexOf[&prepared.proto().graph().node(i)] = i;
    // Q/DQ nodes go right before the node they were made for; another reader may come earlier, so the nodes are
    // sorted once at the end (written_graph.h).
    std::vector<std::vector<onnx::NodeProto>> before(static_cast<size_t>(graph.node_size()));
    std::vector<std::vector<onnx::NodeProto>> after(static_cast<size_t>(graph.node_size()));
    UniqueNames names(graph);
    QdqEditor editor(graph, options, names);
    for (const auto& edge : placement.edges) {
        const Node& node = prepared.graph().node(edge.consumer);
        const int index = indexOf.at(node.proto);
        const std::string& tensor = prepared.graph().value(edge.tensor).name;
        QL_ASSIGN_OR_RETURN(auto input, editor.dequantized(tensor, edge, before[static_cast<size_t>(index)]));
        graph.mutable_node(index)->set_input(edge.input, input);
    }
    const bool typed = std::find(islands.nodes.begin(), islands.nodes.end(), true) != islands.nodes.end();
    std::optional<Fp16IslandWriter> writer;
    if (typed || islands.fp16Io) writer.emplace(graph, prepared.graph(), islands.nodes, names);
    for (const Node& node : prepared.graph().nodes()) {
        if (!writer) break;
        const auto index = static_cast<size_t>(indexOf.at(node.proto));
        QL_RETURN_IF_ERROR(
            writer->visit(node, *graph.mutable_node(static_cast<int>(index)), before[index], after[index]));
    }
    google::protobuf::RepeatedPtrField<onnx::NodeProto> nodes;
    for (int i = 0; i < graph.node_size(); ++i) {
        for (auto& added : before[static_cast<size_t>(i)]) *nodes.Add() = std::move(added);
        *nodes.Add() = graph.node(i);
        for (auto& added : after[static_cast<size_t>(i)]) *nodes.Add() = std::move(added);
    }
    graph.mutable_node()->Swap(&nodes);
    if (writer) {
        std::vector<onnx::NodeProto> first, last;
        writer->finish(islands.fp16Io, first, last);
        google::protobuf::RepeatedPtrField<onnx::NodeProto> all;
        for (auto& added : first) *all.Add() = std::move(added);
        for (auto& node : *graph.mutable_node()) *all.Add() = std::move(node);
        for (auto& added : last) *all.Add() = std::move(added);
        graph.mutable_node()->Swap(&all);
        if (stats != nullptr) *stats = writer->stats();
    }
    removeUnusedInitializers(graph);
    QL_RETURN_IF_ERROR(sortNodesTopologically(graph).withContext(prepared.fileName()));
    QL_RETURN_IF_ERROR(checkWrittenModel(proto, checkerError(prepared).empty()).withContext(prepared.fileName()));
    return proto;
}

}  // namespace ql
