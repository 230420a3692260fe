#pragma once
// The scene of the graph view: owns a snapshot of the graph, what is shown of it (Q/DQ pairs, constants,
// collapsed scopes), the layout engine, and one item per visible box and edge. Precisions and lint badges are
// kept per graph node, so they survive every re-layout.
#include <QGraphicsScene>
#include <map>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "ui/graph/graph_layout_engine.h"
#include "ui/graph/graph_snapshot.h"
#include "ui/graph/node_style.h"

namespace ql::ui {

class GraphEdgeItem;
class GraphNodeItem;

class GraphScene : public QGraphicsScene {
    Q_OBJECT
public:
    explicit GraphScene(QObject* parent = nullptr);
    ~GraphScene() override;

    // Copies what the view needs from `graph` (no pointer into it is kept) and lays it out in the background.
    void setGraph(const Graph& graph);
    // Shows the structure of a model still loading (ModelLoader::previewReady), without types or precisions, until
    // the next setGraph() or clearGraph().
    void setPreview(GraphSnapshot structure);
    bool isPreview() const { return mPreview; }
    void clearGraph();
    bool hasGraph() const { return mHasGraph; }
    const GraphSnapshot& snapshot() const { return mSnapshot; }
    // The layout the items show; null before the first one arrives.
    const GraphLayout* layout() const { return mLayout.get(); }
    bool isLayoutPending() const { return mEngine.isBusy(); }
    GraphLayoutEngine& engine() { return mEngine; }

    // Each change lays the graph out again (in the background).
    void setShowQdq(bool show);
    bool showQdq() const { return mVisibility.showQdq; }
    void setShowConstants(bool show);
    bool showConstants() const { return mVisibility.showConstants; }
    // Tensor shapes as labels on the edges (they are always in the edges' tooltips); no new layout.
    void setShowTensorShapes(bool show);
    bool showTensorShapes() const { return mShowTensorShapes; }
    const std::vector<GraphEdgeItem*>& edgeItems() const { return mEdgeItems; }
    void expandScope(const std::string& scope);
    void collapseScope(const std::string& scope);
    // The scopes that can be collapsed around a box, outermost first: those holding at least two operators that
    // enclose the operator, or enclose the block (a one-op scope is not collapsible).
    std::vector<std::string> collapsibleScopes(const GraphNodeItem* item) const;
    // Collapses every outermost scope of two or more operators (inside a scope that holds the whole graph) / opens
    // every scope (also those a big graph collapses on its own).
    void collapseAll();
    void expandAll();
    // Collapses every scope at nesting `level` (1: "/a", 2: "/a/b") and opens those above it, the user's choices
    // dropped (Fit to Window's readable overview; expanding a block undoes it).
    void collapseToLevel(int level);
    // The operators shown per name scope (scopeSizes()).
    const std::map<std::string, size_t>& shownScopeSizes() const { return mScopeSizes; }
    // Expands the blocks that hide `node`; false when it is already visible (no new layout).
    bool revealNode(NodeId node);
    // Thresholds (tests use small ones); keeps the user's expanded/collapsed scopes.
    void setCollapseThresholds(size_t collapseAbove, size_t collapsedBudget);
    // Lays the graph out again unless `relayout` is false (the next change does).
    void setLayoutOptions(const LayoutOptions& options, bool relayout = true);
    const LayoutOptions& layoutOptions() const { return mLayoutOptions; }
    // Around the laid-out graph, in scene units.
    static constexpr double kSceneMargin = 40;

    void setNodePrecision(NodeId node, Precision precision);
    // Every node's at once (indexed by NodeId), each box refreshed once: a block of a 100k-node graph holds
    // thousands of nodes, and refreshing it per node was quadratic.
    void setNodePrecisions(const std::vector<Precision>& precisions);
    void clearNodePrecision(NodeId node);
    void clearNodePrecisions();
    std::optional<Precision> nodePrecision(NodeId node) const;
    void setNodeBadge(NodeId node, Severity severity, const QString& text);
    struct NodeBadge {
        NodeId node;
        Severity severity;
        QString text;
    };
    // Replaces every badge, each box refreshed once (a lint of a 100k-node graph gives thousands of findings, and
    // refreshing a block per finding was quadratic). A node listed twice keeps its first badge.
    void setNodeBadges(const std::vector<NodeBadge>& badges);
    void clearNodeBadge(NodeId node);
    void clearNodeBadges();
    // The text of the node's lint badge; empty when it has none.
    QString nodeBadgeText(NodeId node) const {
        const auto it = mBadges.find(node);
        return it == mBadges.end() ? QString() : it->second.text;
    }

    // The engine report's marks on a node (graph_node_item.h); a block shows the member with the highest weight
    // (the slowest in the time colouring) and the ring when any member differs from the plan.
    struct EngineMark {
        std::optional<QColor> fill;
        double weight = 0.0;
        QString text;
        bool mismatch = false;
    };
    void setNodeEngineMark(NodeId node, const EngineMark& mark);
    // Replaces every engine mark, each box refreshed once (as setNodeBadges).
    void setNodeEngineMarks(std::unordered_map<NodeId, EngineMark> marks);
    void clearEngineMarks();

    const std::vector<GraphNodeItem*>& nodeItems() const { return mItems; }
    // The box that shows `node`: its own, its block's, or (for a hidden Q/DQ or Constant node) the box of the
    // layer it feeds. Null when there is none or no layout yet.
    GraphNodeItem* itemForNode(NodeId node) const;
    // The graph nodes a box stands for: one operator, a block's members, none for inputs/outputs.
    std::vector<NodeId> nodesOf(const GraphNodeItem* item) const;
    // Boxes connected to box `index` by an edge, in edge order.
    const std::vector<int>& predecessors(int index) const { return mPredecessors.at(static_cast<size_t>(index)); }
    const std::vector<int>& successors(int index) const { return mSuccessors.at(static_cast<size_t>(index)); }

signals:
    // The items are about to be replaced (their selection changes are not the user's).
    void layoutAboutToBeApplied();
    // The items now show a new layout; `newGraph` when it is the first layout of a graph set by setGraph().
    void layoutApplied(bool newGraph);
    // Precisions or engine marks changed (what the overview colours boxes by).
    void decorationsChanged();

protected:
    // The edges' shape labels, above every node (View > Show Tensor Shapes), and the lint badges when zoomed out.
    void drawForeground(QPainter* painter, const QRectF& rect) override;

private:
    void showSnapshot(GraphSnapshot snapshot, bool preview);
    void relayout();
    void paintOverviewBadges(QPainter* painter, const QRectF& rect, double lod) const;
    void applyLayout(quint64 generation, std::shared_ptr<const GraphLayout> layout);
    void addOpenHint(GraphNodeItem* item, const SnapshotNode& node) const;
    void addEdgeItems();
    void crowdOutOverlappingLabels();
    QString edgeToolTip(const VisibleEdge& edge) const;
    QString edgeLabel(const VisibleEdge& edge) const;
    void refreshDecorations(GraphNodeItem* item) const;
    void refreshAllDecorations() const;
    void refreshDecorationsOf(NodeId node);
    void refreshEngineMark(GraphNodeItem* item, const std::vector<NodeId>& nodes) const;
    int visibleIndexOf(NodeId node) const;

    struct Badge {
        Severity severity;
        QString text;
    };

    NodeMetrics mMetrics;
    GraphLayoutEngine mEngine;
    GraphSnapshot mSnapshot;
    bool mHasGraph = false;
    bool mPreview = false;  // the snapshot is a loading model's structure (setPreview)
    bool mAwaitingFirstLayout = false;
    VisibilityOptions mVisibility;
    std::map<std::string, size_t> mScopeSizes;  // for mVisibility
    LayoutOptions mLayoutOptions;
    std::shared_ptr<const GraphLayout> mLayout;
    std::vector<GraphNodeItem*> mItems;  // per visible node of mLayout
    std::vector<GraphEdgeItem*> mEdgeItems;
    bool mShowTensorShapes = false;
    std::vector<std::vector<int>> mPredecessors;
    std::vector<std::vector<int>> mSuccessors;
    std::unordered_map<NodeId, Precision> mPrecisions;
    std::unordered_map<NodeId, Badge> mBadges;
    std::unordered_map<NodeId, EngineMark> mEngineMarks;
};

}  // namespace ql::ui
