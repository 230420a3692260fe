#include "ui/graph/graph_snapshot.h"

#include <onnx/onnx_pb.h>

#include <algorithm>

namespace ql::ui {

namespace {

std::string typeText(const TensorType& type) {
    return std::string(dataTypeName(type.dtype)) + " " + type.shapeString();
}

void markQdqLinks(const Graph& graph, GraphSnapshot& snapshot) {
    for (const QdqLink& link : graph.qdqLinks()) {
        // A pair that feeds no layer (e.g. straight into a graph output) stays visible: nothing carries its badge.
        if (link.layer == kNoId) continue;
        snapshot.nodes[static_cast<size_t>(link.layer)].quantized = true;
        if (link.quantize != kNoId) snapshot.nodes[static_cast<size_t>(link.quantize)].isQdq = true;
        if (link.dequantize != kNoId) snapshot.nodes[static_cast<size_t>(link.dequantize)].isQdq = true;
    }
}

std::vector<SnapshotSubgraph> subgraphsOf(const Node& node) {
    std::vector<SnapshotSubgraph> bodies;
    if (node.subgraphs.empty() || node.proto == nullptr) return bodies;
    for (const auto& attr : node.proto->attribute()) {
        if (attr.has_g()) bodies.push_back({attr.name(), static_cast<size_t>(attr.g().node_size())});
    }
    // then_branch first, whatever the file's order (exporters write else_branch first too).
    std::stable_partition(bodies.begin(), bodies.end(),
                          [](const auto& body) { return body.attribute == "then_branch"; });
    return bodies;
}

}  // namespace

const SnapshotSubgraph* defaultSubgraph(const SnapshotNode& node) {
    return node.subgraphs.empty() ? nullptr : &node.subgraphs.front();
}

GraphSnapshot GraphSnapshot::from(const Graph& graph) {
    GraphSnapshot snapshot;
    snapshot.nodes.reserve(graph.nodes().size());
    for (const Node& node : graph.nodes()) {
        SnapshotNode copy{node.name, node.opType, node.inputs, node.outputs, false, false, false, subgraphsOf(node)};
        copy.isConstantOp = node.opType == "Constant" && node.domain.empty() && node.inputs.empty();
        snapshot.mNodeIndex.emplace(node.name, node.id);
        snapshot.nodes.push_back(std::move(copy));
    }
    snapshot.values.reserve(graph.values().size());
    for (size_t i = 0; i < graph.values().size(); ++i) {
        const Value& value = graph.values()[i];
        snapshot.values.push_back({value.name, typeText(value.type), value.producer, value.consumers,
                                   value.initializer >= 0, value.isGraphInput, value.isGraphOutput});
        snapshot.mValueIndex.emplace(value.name, static_cast<ValueId>(i));
    }
    snapshot.inputs = graph.inputs();
    snapshot.outputs = graph.outputs();
    markQdqLinks(graph, snapshot);
    return snapshot;
}

std::optional<NodeId> GraphSnapshot::findNode(const std::string& name) const {
    auto it = mNodeIndex.find(name);
    if (it == mNodeIndex.end()) return std::nullopt;
    return it->second;
}

std::optional<ValueId> GraphSnapshot::findValue(const std::string& name) const {
    auto it = mValueIndex.find(name);
    if (it == mValueIndex.end()) return std::nullopt;
    return it->second;
}

}  // namespace ql::ui
