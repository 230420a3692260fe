// The only file that includes <gvc.h>: its macros (MIN, MAX, TRUE...) must not leak into the rest of the UI.
#include "ui/graph/dot_layout.h"

#include <gvc.h>

#include <cstdio>
#include <mutex>
#include <string>

namespace ql::ui {

namespace {

constexpr double kPointsPerInch = 72.0;

std::mutex& graphvizMutex() {
    static std::mutex mutex;
    return mutex;
}

// One context for the process: creating one loads the plugin configuration each time.
GVC_t* graphvizContext() {
    static GVC_t* context = gvContext();
    return context;
}

// Graphviz takes char* everywhere but does not modify these strings.
char* text(const char* s) {
    return const_cast<char*>(s);
}

std::string inches(double points) {
    return std::to_string(points / kPointsPerInch);
}

// The Graphviz graph of a VisibleGraph; closes it on destruction.
class DotGraph {
public:
    DotGraph(const VisibleGraph& graph, const LayoutOptions& options) {
        mGraph = agopen(text("g"), Agdirected, nullptr);
        agattr(mGraph, AGRAPH, text("rankdir"), text("TB"));
        agattr(mGraph, AGRAPH, text("nodesep"), text(inches(options.nodeSeparation).c_str()));
        agattr(mGraph, AGRAPH, text("ranksep"), text(inches(options.rankSeparation).c_str()));
        agattr(mGraph, AGNODE, text("shape"), text("box"));
        agattr(mGraph, AGNODE, text("fixedsize"), text("true"));
        // An empty label: dot must not measure text; our boxes have fixed sizes.
        agattr(mGraph, AGNODE, text("label"), text(""));
        Agsym_t* width = agattr(mGraph, AGNODE, text("width"), text("1"));
        Agsym_t* height = agattr(mGraph, AGNODE, text("height"), text("0.5"));
        agattr(mGraph, AGEDGE, text("arrowsize"), text("0.7"));
        for (size_t i = 0; i < graph.nodes.size(); ++i) {
            char name[32];
            std::snprintf(name, sizeof name, "n%zu", i);
            Agnode_t* node = agnode(mGraph, name, 1);
            agxset(node, width, text(inches(graph.nodes[i].width).c_str()));
            agxset(node, height, text(inches(graph.nodes[i].height).c_str()));
            mNodes.push_back(node);
        }
        for (const VisibleEdge& edge : graph.edges) {
            mEdges.push_back(agedge(mGraph, mNodes[static_cast<size_t>(edge.from)],
                                    mNodes[static_cast<size_t>(edge.to)], nullptr, 1));
        }
    }
    ~DotGraph() {
        if (mLaidOut) gvFreeLayout(graphvizContext(), mGraph);
        agclose(mGraph);
    }
    DotGraph(const DotGraph&) = delete;
    DotGraph& operator=(const DotGraph&) = delete;

    bool layout() {
        mLaidOut = gvLayout(graphvizContext(), mGraph, "dot") == 0;
        return mLaidOut;
    }

    void readBack(GraphLayout& layout) const {
        const boxf bb = GD_bb(mGraph);
        // Graphviz has y up: flip, and move the bounding box to the origin.
        auto toScene = [&](pointf p) { return LayoutPoint{p.x - bb.LL.x, bb.UR.y - p.y}; };
        layout.width = bb.UR.x - bb.LL.x;
        layout.height = bb.UR.y - bb.LL.y;
        layout.nodeRects.resize(mNodes.size());
        for (size_t i = 0; i < mNodes.size(); ++i) {
            const LayoutPoint c = toScene(ND_coord(mNodes[i]));
            const VisibleNode& node = layout.graph.nodes[i];
            layout.nodeRects[i] = {c.x - node.width / 2, c.y - node.height / 2, node.width, node.height};
        }
        layout.edgeRoutes.resize(mEdges.size());
        for (size_t i = 0; i < mEdges.size(); ++i) {
            const splines* spl = ED_spl(mEdges[i]);
            if (spl == nullptr || spl->size < 1) continue;
            const bezier& bz = spl->list[0];
            EdgeRoute& route = layout.edgeRoutes[i];
            route.bezier = true;
            for (int k = 0; k < bz.size; ++k) route.points.push_back(toScene(bz.list[k]));
            route.hasArrowTip = bz.eflag != 0;
            if (route.hasArrowTip) route.arrowTip = toScene(bz.ep);
        }
    }

private:
    Agraph_t* mGraph = nullptr;
    std::vector<Agnode_t*> mNodes;
    std::vector<Agedge_t*> mEdges;
    bool mLaidOut = false;
};

}  // namespace

std::optional<GraphLayout> dotLayout(GraphLayout layout, const LayoutOptions& options) {
    std::lock_guard lock(graphvizMutex());
    if (graphvizContext() == nullptr) return std::nullopt;
    DotGraph dot(layout.graph, options);
    if (!dot.layout()) return std::nullopt;
    dot.readBack(layout);
    layout.algorithm = LayoutAlgorithm::Dot;
    return layout;
}

}  // namespace ql::ui
