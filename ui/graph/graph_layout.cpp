#include "ui/graph/graph_layout.h"

#include <algorithm>
#include <chrono>
#include <optional>

#include "ui/graph/dot_layout.h"
#include "ui/graph/layered_layout.h"

namespace ql::ui {

size_t layeredWork(const VisibleGraph& graph) {
    const size_t n = graph.nodes.size();
    std::vector<std::vector<int>> successors(n);
    std::vector<int> indegree(n, 0);
    for (const VisibleEdge& edge : graph.edges) {
        successors[static_cast<size_t>(edge.from)].push_back(edge.to);
        ++indegree[static_cast<size_t>(edge.to)];
    }
    std::vector<int> rank(n, 0);
    std::vector<int> ready;
    for (size_t v = 0; v < n; ++v) {
        if (indegree[v] == 0) ready.push_back(static_cast<int>(v));
    }
    for (size_t i = 0; i < ready.size(); ++i) {
        const size_t v = static_cast<size_t>(ready[i]);
        for (int w : successors[v]) {
            rank[static_cast<size_t>(w)] = std::max(rank[static_cast<size_t>(w)], rank[v] + 1);
            if (--indegree[static_cast<size_t>(w)] == 0) ready.push_back(w);
        }
    }
    size_t work = n;
    for (const VisibleEdge& edge : graph.edges)
        work += static_cast<size_t>(
            std::max(1, rank[static_cast<size_t>(edge.to)] - rank[static_cast<size_t>(edge.from)]) - 1);
    return work;
}

namespace {

bool fitsWrapArea(const GraphLayout& layout, const LayoutOptions& options) {
    return options.wrapWidth <= 0 || options.wrapHeight <= 0 ||
           (layout.width <= options.wrapWidth && layout.height <= options.wrapHeight);
}

}  // namespace

// Dot's layout is kept unless it is too long for the wrap area and the layered layout wraps it into columns.
GraphLayout layoutGraph(VisibleGraph graph, const LayoutOptions& options) {
    const auto start = std::chrono::steady_clock::now();
    GraphLayout layout;
    layout.graph = std::move(graph);
    std::optional<GraphLayout> dot;
    if (!layout.graph.nodes.empty() && layout.graph.nodes.size() <= options.dotLimit &&
        layeredWork(layout.graph) <= options.dotWorkLimit)
        dot = dotLayout(layout, options);
    GraphLayout result;
    if (dot && fitsWrapArea(*dot, options)) {
        result = std::move(*dot);
    } else {
        result = layeredLayout(std::move(layout), options);
        if (dot && result.columns == 1) result = std::move(*dot);
    }
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
}

}  // namespace ql::ui
