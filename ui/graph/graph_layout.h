#pragma once
// A laid-out graph in scene coordinates (points, y down): a rectangle per visible node and a route per edge.
// Qt-free plain data produced off the GUI thread by layoutGraph().
#include <vector>

#include "ui/graph/visible_graph.h"

namespace ql::ui {

struct LayoutPoint {
    double x = 0;
    double y = 0;
};

struct LayoutRect {
    double x = 0;  // top-left
    double y = 0;
    double width = 0;
    double height = 0;
    LayoutPoint center() const { return {x + width / 2, y + height / 2}; }
};

struct EdgeRoute {
    // bezier: 1 + 3k cubic control points (Graphviz); otherwise a polyline.
    std::vector<LayoutPoint> points;
    bool bezier = false;
    bool hasArrowTip = false;  // the arrow runs from the last point to arrowTip
    LayoutPoint arrowTip;
};

enum class LayoutAlgorithm { Dot, Layered };

struct GraphLayout {
    VisibleGraph graph;
    std::vector<LayoutRect> nodeRects;  // per graph.nodes
    std::vector<EdgeRoute> edgeRoutes;  // per graph.edges
    LayoutAlgorithm algorithm = LayoutAlgorithm::Layered;
    double width = 0;
    double height = 0;
    double seconds = 0;  // time spent laying out
    int columns = 1;     // side-by-side columns a long layered layout was wrapped into (LayoutOptions::wrapWidth)
};

struct LayoutOptions {
    size_t dotLimit = 1500;  // Graphviz dot up to this many boxes; our linear-time layered layout above
    // ... and up to this many boxes plus the virtual nodes long edges need (one per rank crossed): dot's time
    // grows with those, e.g. DenseNet's concatenations of every earlier layer take it minutes.
    size_t dotWorkLimit = 4000;
    double nodeSeparation = 24;
    double rankSeparation = 36;
    // A layout that does not fit wrapWidth x wrapHeight (scene units: the viewport at the smallest readable zoom) is
    // laid out by the layered layout wrapped into side-by-side columns, as many as give the largest fitted zoom.
    // 0: never wrapped. Fit to Window sets it for a long graph (graph_fit.h).
    double wrapWidth = 0;
    double wrapHeight = 0;
    double columnGap = 60;  // between wrapped columns: the edges from one column to the next run up in it
};

// Graphviz dot for graphs within options.dotLimit and dotWorkLimit (falling back to the layered layout if dot
// fails), the layered layout above; the layered layout wrapped into columns when options.wrapWidth is set and the
// unwrapped layout does not fit it.
GraphLayout layoutGraph(VisibleGraph graph, const LayoutOptions& options);

// Boxes plus the ranks crossed by long edges, with ranks by longest path (edges closing a cycle count once).
size_t layeredWork(const VisibleGraph& graph);

}  // namespace ql::ui
