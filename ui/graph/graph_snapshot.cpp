#include "ui/graph/graph_snapshot.h"

#include <onnx/onnx_pb.h>

#include <algorithm>

#include "core/model/subgraph_model.h"
#include "core/quant/realized_precision.h"

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

// The values of `graph` that `body` reads from outer scope. A name the graph does not know (a body that reads
// what no enclosing graph defines fails to load, so there is none in practice) is left out.
std::vector<ValueId> outerValues(const Graph& graph, const onnx::GraphProto& body) {
    std::vector<ValueId> values;
    for (const std::string& name : outerScopeNames(body)) {
        if (auto value = graph.findValue(name)) values.push_back(*value);
    }
    return values;
}

void addUnique(std::vector<ValueId>& to, const std::vector<ValueId>& values) {
    for (ValueId value : values) {
        if (std::find(to.begin(), to.end(), value) == to.end()) to.push_back(value);
    }
}

// The bodies of `node`, then_branch first, and the outer-scope values they read into `node.outerInputs`.
void addSubgraphs(const Graph& graph, const Node& source, SnapshotNode& node) {
    if (source.subgraphs.empty() || source.proto == nullptr) return;
    // Bodies in a GRAPHS attribute (no standard op has one) add to the node's list but get no entry of their own.
    std::vector<ValueId> fromGraphLists;
    for (const auto& attr : source.proto->attribute()) {
        if (attr.has_g())
            node.subgraphs.push_back(
                {attr.name(), static_cast<size_t>(attr.g().node_size()), outerValues(graph, attr.g())});
        for (const auto& body : attr.graphs()) addUnique(fromGraphLists, outerValues(graph, body));
    }
    // then_branch first, whatever the file's order (exporters write else_branch first too).
    std::stable_partition(node.subgraphs.begin(), node.subgraphs.end(),
                          [](const auto& body) { return body.attribute == "then_branch"; });
    for (const SnapshotSubgraph& body : node.subgraphs) addUnique(node.outerInputs, body.outerInputs);
    addUnique(node.outerInputs, fromGraphLists);
}

bool hasScope(const std::string& name) {
    const size_t slash = name.find('/', 1);
    return slash != std::string::npos && slash + 1 < name.size();
}

// Ranges of graph order as scopes, for a big graph whose names mostly have none (a flat export): blocks of 1,000
// nodes, inside blocks of 10,000, and so on while the graph is bigger.
void addRangeScopes(GraphSnapshot& snapshot) {
    const size_t n = snapshot.nodes.size();
    if (n <= kRangeScopesAbove) return;
    const auto scoped = std::count_if(snapshot.nodes.begin(), snapshot.nodes.end(),
                                      [](const SnapshotNode& node) { return hasScope(node.name); });
    if (static_cast<size_t>(scoped) * 2 >= n) return;
    std::vector<size_t> sizes{1000};
    while (sizes.back() * 10 < n) sizes.push_back(sizes.back() * 10);
    std::reverse(sizes.begin(), sizes.end());  // outermost first
    for (size_t i = 0; i < n; ++i) {
        std::string path;
        for (size_t size : sizes) {
            const size_t first = i / size * size;
            path += "/";
            path += kRangeScopePrefix;
            path += std::to_string(first + 1) + "-" + std::to_string(std::min(n, first + size));
        }
        const std::string& name = snapshot.nodes[i].name;
        snapshot.nodes[i].rangeScopedName = path + (name.starts_with('/') ? "" : "/") + name;
    }
}

}  // namespace

const SnapshotSubgraph* defaultSubgraph(const SnapshotNode& node) {
    return node.subgraphs.empty() ? nullptr : &node.subgraphs.front();
}

std::vector<std::string> bodiesReading(const SnapshotNode& node, ValueId value) {
    std::vector<std::string> bodies;
    for (const SnapshotSubgraph& body : node.subgraphs) {
        if (std::find(body.outerInputs.begin(), body.outerInputs.end(), value) != body.outerInputs.end())
            bodies.push_back(body.attribute);
    }
    return bodies;
}

GraphSnapshot GraphSnapshot::from(const Graph& graph) {
    GraphSnapshot snapshot;
    snapshot.nodes.reserve(graph.nodes().size());
    const std::vector<bool> folded = constantComputed(graph);
    for (const Node& node : graph.nodes()) {
        SnapshotNode copy;
        copy.name = node.name;
        copy.opType = node.opType;
        copy.inputs = node.inputs;
        copy.outputs = node.outputs;
        addSubgraphs(graph, node, copy);
        copy.isConstantOp = (node.opType == "Constant" && node.domain.empty() && node.inputs.empty()) ||
                            folded[static_cast<size_t>(node.id)];
        snapshot.mNodeIndex.emplace(node.name, node.id);
        snapshot.nodes.push_back(std::move(copy));
    }
    snapshot.values.reserve(graph.values().size());
    for (size_t i = 0; i < graph.values().size(); ++i) {
        const Value& value = graph.values()[i];
        SnapshotValue copy;
        copy.name = value.name;
        copy.typeText = typeText(value.type);
        copy.producer = value.producer;
        copy.consumers = value.consumers;
        copy.initializer = value.initializer >= 0;
        copy.graphInput = value.isGraphInput;
        copy.graphOutput = value.isGraphOutput;
        snapshot.values.push_back(std::move(copy));
        snapshot.mValueIndex.emplace(value.name, static_cast<ValueId>(i));
    }
    for (size_t i = 0; i < snapshot.nodes.size(); ++i) {
        for (ValueId value : snapshot.nodes[i].outerInputs)  // each node lists a value once: one entry per reader
            snapshot.values[static_cast<size_t>(value)].outerReaders.push_back(static_cast<NodeId>(i));
    }
    snapshot.inputs = graph.inputs();
    snapshot.outputs = graph.outputs();
    markQdqLinks(graph, snapshot);
    addRangeScopes(snapshot);
    snapshot.indexScopes();
    return snapshot;
}

std::vector<size_t> scopeEnds(std::string_view nodeName) {
    std::vector<size_t> ends;
    for (size_t i = 1; i < nodeName.size(); ++i)
        if (nodeName[i] == '/' && nodeName[i - 1] != '/') ends.push_back(i);
    return ends;
}

void GraphSnapshot::indexScopes() {
    // Looked up by view, so that a scope seen before costs no string.
    struct Hash {
        using is_transparent = void;
        size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
    };
    std::unordered_map<std::string, int, Hash, std::equal_to<>> ids;
    mScopeIds.clear();
    mScopeStart.assign(1, 0);
    for (const SnapshotNode& node : nodes) {
        const std::string_view name = scopeSource(node);
        for (size_t end : scopeEnds(name)) {
            const std::string_view scope = name.substr(0, end);
            auto it = ids.find(scope);
            if (it == ids.end()) {
                it = ids.emplace(std::string(scope), static_cast<int>(scopeNames.size())).first;
                scopeNames.emplace_back(scope);
            }
            mScopeIds.push_back(it->second);
        }
        mScopeStart.push_back(mScopeIds.size());
    }
}

bool GraphSnapshot::takeTypes(const Graph& graph) {
    if (graph.nodes().size() != nodes.size() || graph.values().size() != values.size()) return false;
    for (size_t i = 0; i < nodes.size(); ++i)
        if (graph.nodes()[i].name != nodes[i].name) return false;
    for (size_t i = 0; i < values.size(); ++i)
        if (graph.values()[i].name != values[i].name) return false;
    for (size_t i = 0; i < values.size(); ++i) values[i].typeText = typeText(graph.values()[i].type);
    return true;
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
