#pragma once
// What the graph view draws: the boxes (operators, collapsed name-scope blocks, graph inputs and outputs) and the
// edges between them, derived from a GraphSnapshot. Q/DQ pairs and Constant nodes are hidden by default and edges
// are routed through them; a control-flow node (If, Loop, Scan) also gets an edge from each value its bodies read
// from the enclosing graph (outer scope), unless a data edge already joins the same boxes with it; big graphs
// collapse their name scopes (`/layer1/layer1.0/conv1/Conv` -> block `/layer1`) so that they lay out and draw
// quickly. Qt-free plain data, built on the GUI thread (linear time) and handed to the layout thread by value.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "ui/graph/graph_snapshot.h"

namespace ql::ui {

enum class VisibleKind { Operator, Block, GraphInput, GraphOutput };

struct VisibleNode {
    VisibleKind kind = VisibleKind::Operator;
    NodeId node = kNoId;          // Operator: the graph node
    ValueId value = kNoId;        // GraphInput / GraphOutput: the tensor
    std::string scope;            // Block: the name-scope prefix, e.g. "/layer1"
    std::vector<NodeId> members;  // Block: the operators inside, in graph order
    std::string title;            // op type, scope, or tensor name
    std::string subtitle;         // node name, member count, or tensor type
    double width = 0;             // set by the caller (text metrics live in the UI)
    double height = 0;
};

struct VisibleEdge {
    int from = -1;  // index into VisibleGraph::nodes
    int to = -1;
    ValueId value = kNoId;  // the (first) tensor it carries
    int count = 1;          // tensors it stands for (edges into or out of blocks are merged)
    // The tensor is not an input of `to` but read by name inside the bodies of a control-flow node it shows
    // (SnapshotNode::outerInputs); `reader` is that (first) node. Drawn dashed; laid out as any edge.
    bool outerScope = false;
    NodeId reader = kNoId;
};

struct VisibilityOptions {
    bool showQdq = false;
    bool showConstants = false;
    size_t collapseAbove = 2000;            // collapse name scopes when more operators than this would show
    size_t collapsedBudget = 800;           // then pick the deepest scope level that shows at most this many boxes
    std::set<std::string> expandedScopes;   // opened by the user
    std::set<std::string> collapsedScopes;  // closed by the user (also in small graphs)
};

struct VisibleGraph {
    std::vector<VisibleNode> nodes;
    std::vector<VisibleEdge> edges;
    std::vector<int> itemOfNode;  // per graph node: the visible node showing it (itself or its block); -1 hidden
    int collapseDepth = 0;        // scope level collapsed automatically; 0 when nothing was
    size_t operatorCount = 0;     // operators that are not hidden, inside blocks or not
};

VisibleGraph buildVisibleGraph(const GraphSnapshot& graph, const VisibilityOptions& options);

// The number of operators the view shows (Q/DQ and Constant nodes as `options` says) in each name scope, inner
// scopes included: a scope of fewer than two is never drawn as a block.
std::map<std::string, size_t> scopeSizes(const GraphSnapshot& graph, const VisibilityOptions& options);

// A tensor's type as a box or an edge shows it: "float32 [p2o.DynamicDimension.0,3,unk__55,640]" -> "float32
// [?,3,?,640]". The names exporters and inference make up for unknown dimensions say no more than "?" and pushed the
// known ones out of sight; other long names are cut to 12 characters. The tooltips keep the whole type.
std::string compactTypeText(const std::string& typeText);

// The name-scope prefixes of a node name, outermost first: "/a/b/Conv" -> {"/a", "/a/b"}.
std::vector<std::string> scopePrefixes(const std::string& nodeName);

// The nesting level of a scope: 1 for "/a", 2 for "/a/b".
int scopeLevel(const std::string& scope);

// The boxes the view shows (inputs and outputs aside) when every scope at `level` is collapsed, the user's choices
// ignored, from scopeSizes() and the operators shown: a scope of one operator shows the operator, and a scope that
// holds every operator is left open (one block of everything shows nothing).
size_t boxesCollapsedAt(const std::map<std::string, size_t>& scopeSizes, size_t operatorCount, int level);

}  // namespace ql::ui
