#pragma once
// A Qt-free copy of what the graph view needs from a ql::Graph: names, op types, connectivity, tensor types,
// Q/DQ links, and the values control-flow bodies read from the graph by name (outer scope). The view keeps this
// copy, never a pointer into the Model, so a reload cannot leave it dangling (STYLE.md rule 2) and the layout can
// run on another thread.
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/model/graph.h"

namespace ql::ui {

// A body of a control-flow node (a graph attribute of If, Loop or Scan).
struct SnapshotSubgraph {
    std::string attribute;  // "then_branch", "else_branch", "body"
    size_t nodeCount = 0;   // the body's own nodes (not those of bodies nested in it)
    // Values of the enclosing graph the body reads by name (outer scope, ONNX's implicit inputs), nested bodies
    // included, in first-seen order; not the names the body defines itself.
    std::vector<ValueId> outerInputs;
};

struct SnapshotNode {
    std::string name;
    // Where the view reads the node's name scopes from when it is not `name` (scopeSource): a big graph whose names
    // have no scopes is grouped in ranges of graph order instead, "/nodes 1-10000/nodes 1-1000/Conv_7", so that it
    // collapses into blocks like a scoped one.
    std::string rangeScopedName;
    std::string opType;
    std::vector<ValueId> inputs;   // kNoId for an omitted optional input
    std::vector<ValueId> outputs;  // kNoId for an omitted optional output
    // A Constant node, or a node computed from constants alone, which the export folds into an initializer (PyTorch's
    // Identity per shared weight: DenseNet-121's 120 made Fit to Window a row of them): data, like an initializer.
    bool isConstantOp = false;
    bool isQdq = false;                       // a QuantizeLinear/DequantizeLinear linked to the layer it quantizes
    bool quantized = false;                   // a layer fed by a Q/DQ pair
    std::vector<SnapshotSubgraph> subgraphs;  // in attribute order, but then_branch first
    // Values of this graph its bodies read by name (the union of the bodies' outerInputs), in body order. A value
    // that is also an explicit input is listed too. Empty for a node without bodies.
    std::vector<ValueId> outerInputs;
};

// The name the node's scopes are read from: its own, or its made-up range scopes (rangeScopedName).
inline const std::string& scopeSource(const SnapshotNode& node) {
    return node.rangeScopedName.empty() ? node.name : node.rangeScopedName;
}

// Graphs of more nodes than this whose names mostly have no scopes get range scopes (rangeScopedName).
constexpr size_t kRangeScopesAbove = 2000;
// What a range scope's name starts with: "nodes 1-1000".
constexpr std::string_view kRangeScopePrefix = "nodes ";

// The bodies of `node` that read `value` from outer scope ("then_branch", "else_branch"), in body order.
std::vector<std::string> bodiesReading(const SnapshotNode& node, ValueId value);

// The body a double-click opens: the first (then_branch for an If); null for a node without bodies.
const SnapshotSubgraph* defaultSubgraph(const SnapshotNode& node);

struct SnapshotValue {
    std::string name;
    std::string typeText;  // "float32 [1,3,224,224]"
    NodeId producer = kNoId;
    std::vector<NodeId> consumers;
    bool initializer = false;
    bool graphInput = false;
    bool graphOutput = false;
    std::vector<NodeId> outerReaders;  // control-flow nodes whose bodies read it by name (SnapshotNode::outerInputs)
};

// Where a node name's scopes end, outermost first: "/a/b/Conv" -> {2, 4} ("/a", "/a/b"); "a//b" has none at the
// doubled slash.
std::vector<size_t> scopeEnds(std::string_view nodeName);

struct GraphSnapshot {
    std::vector<SnapshotNode> nodes;
    std::vector<SnapshotValue> values;
    std::vector<ValueId> inputs;   // graph inputs that are not initializers
    std::vector<ValueId> outputs;  // graph outputs
    // Every name scope of the nodes (of their scopeSource), each once.
    std::vector<std::string> scopeNames;
    // A node's scopes, outermost first, as indices into scopeNames. Found once per snapshot: the view regroups a
    // 100k-node graph on every expand, and making the prefix strings anew took 0.2 s of the GUI thread each time.
    std::span<const int> scopesOf(size_t node) const {
        return std::span<const int>(mScopeIds).subspan(mScopeStart[node], mScopeStart[node + 1] - mScopeStart[node]);
    }

    static GraphSnapshot from(const Graph& graph);
    // When `graph` has this snapshot's structure (the same nodes and values by name, in order: the model a preview
    // showed, now loaded), takes its tensor types and returns true; from() then gives what this is.
    bool takeTypes(const Graph& graph);
    std::optional<NodeId> findNode(const std::string& name) const;
    std::optional<ValueId> findValue(const std::string& name) const;

private:
    void indexScopes();

    std::vector<int> mScopeIds;
    std::vector<size_t> mScopeStart{0};  // per node and one past the last: where its scopes start in mScopeIds
    std::unordered_map<std::string, NodeId> mNodeIndex;
    std::unordered_map<std::string, ValueId> mValueIndex;
};

}  // namespace ql::ui
