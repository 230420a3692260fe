#pragma once
// The graph view at the centre of the window (Netron-like): boxes coloured by op family and outlined by
// precision, lint badges, Q/DQ pairs as a "Q" badge, collapsible name scopes; zoom (+/-), pan (drag),
// wheel scrolls and Ctrl+wheel zooms (or the other way round), fit (F or 0), legend (L), search, keyboard navigation
// (Up: producer of the first input, Down: first consumer, Left/Right: siblings), precision of the selection (P cycles,
// Ctrl+1/2/3 = FP32/FP16/INT8; the window applies them). Layout runs in the background; the view keeps the selection
// across re-layouts.
//
// Subgraph bodies (If, Loop and Scan): double-click opens a control-flow node's body (then_branch first; the context
// menu lists every body), bodies open further inside bodies, and a breadcrumb above the graph ("model › If_0 ›
// then_branch") goes back to any level, as do Backspace and Alt+Left; the node entered from is then selected and
// centred. Inside a body, search and navigation work on the body; its nodes are announced by subgraphNodeSelected
// (never nodeSelected, whose ids are the main graph's), precision requests do nothing (the plan covers the main
// graph), and the methods that take a NodeId still mean the main graph: selectNode() goes back to it.
//
//   auto* view = new ql::ui::GraphView;
//   view->setDocument(document);                   // shows each model the document loads
//   connect(view, &GraphView::nodeSelected, ...);  // NodeId of the graph
//   view->setNodePrecision(id, ql::Precision::Int8);
//   view->setNodeBadge(id, ql::Severity::Error, "message");
//   connect(view, &GraphView::subgraphNodeSelected, ...);  // a node of the open body
//   view->setSubgraphBadge("If_3/then_branch/Conv_1", ql::Severity::Error, "message");
//   view->findAndCenter("/layer1/layer1.0/conv1/Conv");
#include <QGraphicsView>
#include <QList>
#include <QPointer>
#include <functional>
#include <memory>
#include <optional>

#include "core/model/subgraph_model.h"
#include "ui/graph/graph_legend.h"
#include "ui/graph/graph_scene.h"
#include "ui/graph/graph_search.h"
#include "ui/graph/subgraph_levels.h"

class QAction;
class QMenu;

namespace ql::ui {

class GraphFit;
class GraphMinimap;
class GraphNodeItem;
class ModelDocument;

class GraphView : public QGraphicsView {
    Q_OBJECT
public:
    explicit GraphView(QWidget* parent = nullptr);
    ~GraphView() override;

    // The main graph's scene (also while a body is shown).
    GraphScene* graphScene() const { return mScene; }
    // The scene on screen: the main graph's or the open body's.
    GraphScene* shownScene() const { return mLevels.depth() == 0 ? mScene : mLevels.top().scene; }
    // Shows the graph of every model the document loads (and nothing when it has none).
    void setDocument(ModelDocument* document);
    // Shows `graph` (the main graph, no body open). Opening a body reads it from `graph`, which must stay alive until
    // the next setGraph() or clearGraph() (the document's model does).
    void setGraph(const Graph& graph);
    void clearGraph();
    // Shows the structure of a model still loading (ModelLoader::previewReady): pan and zoom only, no selection,
    // until setGraph() or clearGraph(). endPreview() goes back to the document's graph (the load failed).
    void showPreview(const std::shared_ptr<ql::ui::GraphSnapshot>& structure);
    void endPreview();
    bool isPreview() const { return mScene->isPreview(); }

    // Opens body `attribute` of `node`, a node of the graph shown; false when it has none or it is malformed (then
    // subgraphOpenFailed says why).
    bool openSubgraph(NodeId node, const QString& attribute);
    // Bodies open: 0 on the main graph.
    int subgraphDepth() const { return mLevels.depth(); }
    // Goes back to level `depth` (0: the main graph), selecting and centring the node that was entered from it.
    void closeSubgraphs(int depth);
    // The path of the body shown, "If_0/then_branch/" (nested "If_0/then_branch/Loop_1/body/"); empty on the main
    // graph.
    QString subgraphPath() const;
    SubgraphBreadcrumb* breadcrumb() const { return mBreadcrumb; }

    void setNodePrecision(NodeId node, Precision precision) { mScene->setNodePrecision(node, precision); }
    void setNodePrecisions(const std::vector<Precision>& precisions) { mScene->setNodePrecisions(precisions); }
    void setNodeBadge(NodeId node, Severity severity, const QString& text) {
        mScene->setNodeBadge(node, severity, text);
    }
    // Replaces the main graph's badges, each box refreshed once (GraphScene::setNodeBadges).
    void setNodeBadges(const std::vector<GraphScene::NodeBadge>& badges) { mScene->setNodeBadges(badges); }
    // The badge of a finding inside a body, by its path ("If_3/then_branch/Conv_1"), shown while that body is open.
    void setSubgraphBadge(const std::string& path, Severity severity, const QString& text) {
        mLevels.setBadge(path, severity, text);
    }
    // The main graph's badges and the bodies'.
    void clearNodeBadges();
    // Q/DQ nodes, Constant nodes and tensor shapes shown or not, in the main graph and in bodies alike.
    void setShowQdq(bool show);
    bool showQdq() const { return mScene->showQdq(); }
    void setShowConstants(bool show);
    void setShowTensorShapes(bool show);
    void setLegendVisible(bool visible);
    GraphLegend* legend() const { return mLegend; }
    void setNodeEngineMark(NodeId node, const GraphScene::EngineMark& mark) { mScene->setNodeEngineMark(node, mark); }
    void setNodeEngineMarks(std::unordered_map<NodeId, GraphScene::EngineMark> marks) {
        mScene->setNodeEngineMarks(std::move(marks));
    }
    void clearEngineMarks() { mScene->clearEngineMarks(); }
    // The legend's key of the fills (graph_legend.h), placed again for the view's width.
    void setLegendFillKeys(const QString& title, const QVector<GraphLegendFillKey>& keys);

    // Starts a search (graph_search.h) and selects and centres its current match: the node or the producer of the
    // tensor named `text`, else the first node in graph order that matches. Blocks hiding it are expanded (it is
    // selected when the new layout arrives). False when nothing matches.
    bool findAndCenter(const QString& text);
    // Shows the next / previous match of the search (wrapping); a search for other text starts it anew.
    void findNext(const QString& text);
    void findPrevious(const QString& text);
    const GraphSearch& search() const { return mSearch; }
    // Selects and centres the box showing `node` of the main graph (going back to it from a body).
    void selectNode(NodeId node);
    // The main graph's nodes of the selected boxes (a block stands for its members); none while a body is shown.
    QList<NodeId> selectedNodes() const;
    // The keyboard commands of the view (P, Ctrl+1/2/3, +/-, F/0, Esc, L, arrows, Backspace) as actions with their
    // shortcuts: what the keys do, for menus and Help > Keyboard Shortcuts.
    QList<QAction*> keyActions() const { return mKeyActions; }
    // Emits precisionCycleRequested for the selection (the context menu's action, key P); not inside a body.
    void requestPrecisionCycle();
    // Emits precisionSetRequested for the selection (the context menu's actions, Ctrl+1/2/3 = FP32/FP16/INT8); not
    // inside a body.
    void requestPrecision(ql::Precision precision);

    void zoomIn();
    void zoomOut();
    // A readable overview (graph_fit.h): may wrap the graph into columns or collapse it to a scope level.
    void fitToWindow();
    // The shown scene whole in the viewport as it is laid out, however small.
    void fitWholeScene();
    GraphFit* fit() const { return mFit; }
    GraphMinimap* minimap() const { return mMinimap; }
    double zoomFactor() const { return transform().m11(); }
    // The mouse wheel scrolls and Ctrl+wheel zooms; true swaps them (View > Mouse Wheel Zooms).
    void setWheelZooms(bool zooms) { mWheelZooms = zooms; }
    bool wheelZooms() const { return mWheelZooms; }

signals:
    // A node of the main graph was selected.
    void nodeSelected(ql::NodeId node);
    // A node of the open body was selected: `node` of `body`, whose path is `path` ("If_0/then_branch/").
    void subgraphNodeSelected(std::shared_ptr<const ql::SubgraphModel> body, ql::NodeId node, const QString& path,
                              const ql::BodyPath& bodyPath);
    void subgraphOpenFailed(const QString& message);
    void precisionCycleRequested(QList<ql::NodeId> nodes);
    void precisionSetRequested(QList<ql::NodeId> nodes, ql::Precision precision);
    // The view shows a new layout (after setGraph, a visibility change, or an expanded/collapsed block).
    void layoutApplied();
    // The search's current match (0-based, -1 when none) and its number of matches ("3 of 12").
    void searchChanged(int current, int count);
    // Another graph is shown (setGraph, clearGraph): a search for the previous one means nothing there.
    void graphReplaced();

protected:
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void createKeyActions();
    void moveSelection(int key);
    void connectScene(GraphScene* scene);
    // The main graph's scene and those of the open bodies.
    void forEachScene(const std::function<void(GraphScene&)>& apply);
    void onLayoutApplied(bool newGraph);
    void onSelectionChanged();
    void showInitialView();
    // Puts the scene of the current level on screen, with no selection or search of the level left.
    void showCurrentLevel();
    // Closes the bodies deeper than `depth` and shows it as it was; returns the node it was left through.
    NodeId returnTo(int depth);
    void dropSubgraphs();
    void updateBreadcrumb();
    // The model's file name, or "model".
    QString mainGraphName() const;
    const Graph* shownGraph() const;
    std::vector<NodeId> selectedShownNodes() const;
    void selectShownNode(NodeId node);
    void openDefaultSubgraph(GraphNodeItem* item);
    void addSubgraphActions(QMenu& menu, GraphNodeItem* item);
    void addPrecisionActions(QMenu& menu, bool onSelection);
    void focusItem(GraphNodeItem* item);
    GraphNodeItem* currentItem() const;
    GraphNodeItem* neighbour(GraphNodeItem* item, int key) const;
    void showMatch(std::optional<NodeId> node);
    // Opens the bodies `match` is in, from the level shown; its node there, nullopt when a body would not open.
    std::optional<NodeId> openBodiesOf(const BodyMatch& match);
    void startSearch(const QString& text);
    void zoomBy(double factor);
    // Zooms keeping the scene point under `viewportPos` there (the wheel's position: the last mouse move may be stale).
    void zoomAt(double factor, QPointF viewportPos);
    void scrollBy(QPoint delta, bool horizontal);
    void placeOverlays();
    void expandBlock(GraphNodeItem* block);

    GraphScene* mScene;
    GraphLegend* mLegend;
    SubgraphBreadcrumb* mBreadcrumb;
    GraphMinimap* mMinimap;
    GraphFit* mFit;
    SubgraphLevels mLevels;
    const Graph* mGraph = nullptr;  // the main graph (setGraph), read when a body of it opens
    GraphSearch mSearch;
    int mSearchDepth = 0;  // the level the search was started on
    QPointer<ModelDocument> mDocument;
    QList<QMetaObject::Connection> mDocumentConnections;
    NodeId mPendingFocus = kNoId;  // select and centre it when the next layout arrives
    QList<NodeId> mSelectedNodes;  // kept across re-layouts
    NodeId mLastEmitted = kNoId;
    bool mRestoringSelection = false;
    bool mWheelZooms = false;
    QList<QAction*> mKeyActions;
    QAction* mCycleAction = nullptr;
    QList<QAction*> mSetActions;  // FP32, FP16, INT8
    QAction* mFitAction = nullptr;
    QAction* mLegendAction = nullptr;
};

}  // namespace ql::ui
