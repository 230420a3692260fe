#include "ui/graph/visible_graph.h"

#include <algorithm>
#include <map>
#include <span>
#include <tuple>
#include <unordered_map>

namespace ql::ui {

namespace {

bool isHidden(const SnapshotNode& node, const VisibilityOptions& options) {
    return (node.isQdq && !options.showQdq) || (node.isConstantOp && !options.showConstants);
}

// The user's expanded and collapsed scopes, by scope index.
struct UserScopes {
    std::vector<char> expanded;
    std::vector<char> collapsed;

    UserScopes(const GraphSnapshot& graph, const VisibilityOptions& options)
        : expanded(graph.scopeNames.size(), 0), collapsed(graph.scopeNames.size(), 0) {
        for (size_t id = 0; id < graph.scopeNames.size(); ++id) {
            expanded[id] = options.expandedScopes.contains(graph.scopeNames[id]);
            collapsed[id] = options.collapsedScopes.contains(graph.scopeNames[id]);
        }
    }
};

// Which block (scope index) each visible operator falls in (-1 = shown itself), for automatic collapse at `depth`
// (0 = none) plus the user's expanded/collapsed scopes. A block of one operator shows the operator itself.
class ScopeAssignment {
public:
    ScopeAssignment(const GraphSnapshot& graph, const std::vector<char>& visible, int depth, const UserScopes* user) {
        const size_t n = graph.nodes.size();
        mBlock.assign(n, -1);
        std::vector<int> members(graph.scopeNames.size(), 0);
        for (size_t i = 0; i < n; ++i) {
            if (!visible[i]) continue;
            mBlock[i] = blockOf(graph.scopesOf(i), depth, user);
            if (mBlock[i] >= 0) ++members[static_cast<size_t>(mBlock[i])];
        }
        for (size_t i = 0; i < n; ++i) {
            if (!visible[i]) continue;
            if (mBlock[i] >= 0 && members[static_cast<size_t>(mBlock[i])] < 2) mBlock[i] = -1;
            if (mBlock[i] < 0) ++mBoxes;
        }
        for (int count : members) mBoxes += count >= 2 ? 1 : 0;
    }
    int block(size_t node) const { return mBlock[node]; }
    size_t boxes() const { return mBoxes; }

private:
    static int blockOf(std::span<const int> scopes, int depth, const UserScopes* user) {
        for (size_t level = 0; level < scopes.size(); ++level) {
            const auto id = static_cast<size_t>(scopes[level]);
            const bool expanded = user && user->expanded[id];
            const bool autoCollapsed = depth > 0 && static_cast<int>(level) + 1 >= depth && !expanded;
            if (autoCollapsed || (user && user->collapsed[id])) return scopes[level];
        }
        return -1;
    }

    std::vector<int> mBlock;
    size_t mBoxes = 0;
};

// The deepest scope level whose collapse fits the budget. It ignores the user's choices, so that expanding one
// block never makes the rest of the graph jump to another level.
int chooseCollapseDepth(const GraphSnapshot& graph, const std::vector<char>& visible, size_t operatorCount,
                        const VisibilityOptions& options) {
    if (operatorCount <= options.collapseAbove) return 0;
    size_t maxDepth = 0;
    for (size_t i = 0; i < graph.nodes.size(); ++i)
        if (visible[i]) maxDepth = std::max(maxDepth, graph.scopesOf(i).size());
    if (maxDepth == 0) return 0;
    int best = 1;
    for (int depth = 2; depth <= static_cast<int>(maxDepth); ++depth) {
        if (ScopeAssignment(graph, visible, depth, nullptr).boxes() > options.collapsedBudget) break;
        best = depth;
    }
    return best;
}

class VisibleGraphBuilder {
public:
    VisibleGraphBuilder(const GraphSnapshot& graph, const VisibilityOptions& options)
        : mGraph(graph), mOptions(options) {}

    VisibleGraph build() {
        const size_t n = mGraph.nodes.size();
        std::vector<char> visible(n);
        for (size_t i = 0; i < n; ++i) {
            visible[i] = !isHidden(mGraph.nodes[i], mOptions);
            mOut.operatorCount += visible[i] ? 1 : 0;
        }
        mOut.collapseDepth = chooseCollapseDepth(mGraph, visible, mOut.operatorCount, mOptions);
        const UserScopes user(mGraph, mOptions);
        const ScopeAssignment scopes(mGraph, visible, mOut.collapseDepth, &user);
        mOut.itemOfNode.assign(n, -1);
        for (ValueId input : mGraph.inputs) mInputItem[input] = addTensorBox(VisibleKind::GraphInput, input);
        for (size_t i = 0; i < n; ++i) {
            if (visible[i]) mOut.itemOfNode[i] = addOperator(static_cast<NodeId>(i), scopes.block(i));
        }
        for (auto& block : mOut.nodes) {
            if (block.kind == VisibleKind::Block) block.subtitle = std::to_string(block.members.size()) + " nodes";
        }
        addEdges();
        return std::move(mOut);
    }

private:
    int push(VisibleNode node) {
        mOut.nodes.push_back(std::move(node));
        return static_cast<int>(mOut.nodes.size()) - 1;
    }

    int addTensorBox(VisibleKind kind, ValueId value) {
        const SnapshotValue& v = mGraph.values[static_cast<size_t>(value)];
        VisibleNode box;
        box.kind = kind;
        box.value = value;
        box.title = v.name;
        box.subtitle = compactTypeText(v.typeText);
        return push(std::move(box));
    }

    int addOperator(NodeId id, int scope) {
        const SnapshotNode& node = mGraph.nodes[static_cast<size_t>(id)];
        if (scope < 0) {
            VisibleNode box;
            box.node = id;
            box.title = node.opType;
            box.subtitle = node.name;
            return push(std::move(box));
        }
        auto [it, inserted] = mBlockItem.try_emplace(scope, -1);
        if (inserted) {
            const std::string& block = mGraph.scopeNames[static_cast<size_t>(scope)];
            VisibleNode box;
            box.kind = VisibleKind::Block;
            box.scope = block;
            // A range's path repeats the ranges around it ("/nodes 1-10000/nodes 1-1000"): its own range says it all,
            // kept short ("1-1000"; the subtitle counts the nodes) so that fitted columns of them stay apart.
            const bool ranges = !mGraph.nodes[static_cast<size_t>(id)].rangeScopedName.empty();
            box.title = ranges ? block.substr(block.rfind('/') + 1 + kRangeScopePrefix.size()) : block;
            it->second = push(std::move(box));
        }
        mOut.nodes[static_cast<size_t>(it->second)].members.push_back(id);
        return it->second;
    }

    // The box that produces a tensor, looking through hidden Q/DQ nodes; -1 for initializers and constants.
    int sourceItem(ValueId value) const {
        while (value != kNoId) {
            const SnapshotValue& v = mGraph.values[static_cast<size_t>(value)];
            if (v.producer == kNoId) {
                auto it = mInputItem.find(value);
                return it == mInputItem.end() ? -1 : it->second;
            }
            const int item = mOut.itemOfNode[static_cast<size_t>(v.producer)];
            if (item >= 0) return item;
            const SnapshotNode& hidden = mGraph.nodes[static_cast<size_t>(v.producer)];
            if (hidden.isConstantOp || hidden.inputs.empty()) return -1;
            value = hidden.inputs[0];
        }
        return -1;
    }

    // `reader`: the control-flow node whose bodies read `value` from outer scope; kNoId for a data edge.
    void addEdge(int from, int to, ValueId value, NodeId reader = kNoId) {
        if (from < 0 || to < 0 || from == to) return;
        const bool outerScope = reader != kNoId;
        const bool merged = mOut.nodes[static_cast<size_t>(from)].kind == VisibleKind::Block ||
                            mOut.nodes[static_cast<size_t>(to)].kind == VisibleKind::Block;
        const ValueId carried = merged ? kNoId : value;
        // No dashed edge beside a solid one: not for a tensor that is also the node's input (If's condition read in
        // a branch too), nor, into or out of a block, where a data edge already joins the same two boxes.
        if (outerScope && mEdgeIndex.contains(std::make_tuple(from, to, carried, false))) return;
        const auto key = std::make_tuple(from, to, carried, outerScope);
        auto [it, inserted] = mEdgeIndex.try_emplace(key, static_cast<int>(mOut.edges.size()));
        if (inserted)
            mOut.edges.push_back({from, to, value, 1, outerScope, reader});
        else
            ++mOut.edges[static_cast<size_t>(it->second)].count;
    }

    // Data edges first, so that a box's first predecessor (Up in the view) is its first input's producer, then the
    // outer-scope reads of control-flow nodes, then the graph outputs.
    void addEdges() {
        for (size_t i = 0; i < mGraph.nodes.size(); ++i) {
            const int to = mOut.itemOfNode[i];
            if (to < 0) continue;
            for (ValueId input : mGraph.nodes[i].inputs) {
                if (input != kNoId) addEdge(sourceItem(input), to, input);
            }
        }
        for (size_t i = 0; i < mGraph.nodes.size(); ++i) {
            const int to = mOut.itemOfNode[i];
            if (to < 0) continue;
            for (ValueId value : mGraph.nodes[i].outerInputs)
                addEdge(sourceItem(value), to, value, static_cast<NodeId>(i));
        }
        for (ValueId output : mGraph.outputs)
            addEdge(sourceItem(output), addTensorBox(VisibleKind::GraphOutput, output), output);
    }

    const GraphSnapshot& mGraph;
    const VisibilityOptions& mOptions;
    VisibleGraph mOut;
    std::unordered_map<ValueId, int> mInputItem;
    std::unordered_map<int, int> mBlockItem;                        // scope index -> its block
    std::map<std::tuple<int, int, ValueId, bool>, int> mEdgeIndex;  // (from, to, value or kNoId merged, outer scope)
};

}  // namespace

std::string compactTypeText(const std::string& typeText) {
    const size_t open = typeText.find('[');
    const size_t close = typeText.rfind(']');
    if (open == std::string::npos || close == std::string::npos || close <= open) return typeText;
    constexpr size_t kLongestDim = 12;
    std::string out = typeText.substr(0, open + 1);
    size_t start = open + 1;
    while (start <= close) {
        size_t end = typeText.find(',', start);
        if (end == std::string::npos || end > close) end = close;
        std::string dim = typeText.substr(start, end - start);
        if (dim.starts_with("unk__") || dim.find("DynamicDimension") != std::string::npos)
            dim = "?";
        else if (dim.size() > kLongestDim)
            dim = dim.substr(0, kLongestDim - 1) + "\u2026";
        out += dim;
        out += end == close ? "]" : ",";
        start = end + 1;
    }
    return out + typeText.substr(close + 1);
}

std::vector<std::string> scopePrefixes(const std::string& nodeName) {
    std::vector<std::string> prefixes;
    for (size_t end : scopeEnds(nodeName)) prefixes.push_back(nodeName.substr(0, end));
    return prefixes;
}

int scopeLevel(const std::string& scope) {
    return static_cast<int>(scopePrefixes(scope).size()) + 1;
}

size_t boxesCollapsedAt(const std::map<std::string, size_t>& scopeSizes, size_t operatorCount, int level) {
    size_t boxes = operatorCount;
    for (const auto& [scope, size] : scopeSizes) {
        if (size >= 2 && size < operatorCount && scopeLevel(scope) == level) boxes -= size - 1;
    }
    return boxes;
}

std::map<std::string, size_t> scopeSizes(const GraphSnapshot& graph, const VisibilityOptions& options) {
    std::vector<size_t> counts(graph.scopeNames.size(), 0);
    for (size_t i = 0; i < graph.nodes.size(); ++i) {
        if (isHidden(graph.nodes[i], options)) continue;
        for (int scope : graph.scopesOf(i)) ++counts[static_cast<size_t>(scope)];
    }
    std::map<std::string, size_t> sizes;
    for (size_t id = 0; id < counts.size(); ++id)
        if (counts[id] > 0) sizes.emplace(graph.scopeNames[id], counts[id]);
    return sizes;
}

VisibleGraph buildVisibleGraph(const GraphSnapshot& graph, const VisibilityOptions& options) {
    return VisibleGraphBuilder(graph, options).build();
}

}  // namespace ql::ui
