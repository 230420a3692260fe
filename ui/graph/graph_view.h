#pragma once
// The graph view at the centre of the window (Netron-like): boxes coloured by op family and outlined by
// precision, lint badges, Q/DQ pairs as a "Q" badge, collapsible name scopes; zoom (+/-), pan (drag),
// wheel scrolls and Ctrl+wheel zooms (or the other way round), fit (F or 0), legend (L), search, keyboard navigation
// (Up: producer of the first input, Down: first consumer, Left/Right: siblings), precision of the selection (P cycles,
// Ctrl+1/2/3 = FP32/FP16/INT8; the window applies them). Layout runs in the background; the view keeps the selection
// across re-layouts.
//
//   auto* view = new ql::ui::GraphView;
//   view->setDocument(document);                   // shows each model the document loads
//   connect(view, &GraphView::nodeSelected, ...);  // NodeId of the graph
//   view->setNodePrecision(id, ql::Precision::Int8);
//   view->setNodeBadge(id, ql::Severity::Error, "message");
//   view->findAndCenter("/layer1/layer1.0/conv1/Conv");
#include <QGraphicsView>
#include <QList>
#include <QPointer>
#include <optional>

#include "ui/graph/graph_legend.h"
#include "ui/graph/graph_scene.h"
#include "ui/graph/graph_search.h"

class QAction;

namespace ql::ui {

class GraphNodeItem;
class ModelDocument;

class GraphView : public QGraphicsView {
    Q_OBJECT
public:
    explicit GraphView(QWidget* parent = nullptr);
    ~GraphView() override;

    GraphScene* graphScene() const { return mScene; }
    // Shows the graph of every model the document loads (and nothing when it has none).
    void setDocument(ModelDocument* document);
    void setGraph(const Graph& graph);
    void clearGraph();

    void setNodePrecision(NodeId node, Precision precision) { mScene->setNodePrecision(node, precision); }
    void setNodeBadge(NodeId node, Severity severity, const QString& text) {
        mScene->setNodeBadge(node, severity, text);
    }
    void clearNodeBadges() { mScene->clearNodeBadges(); }
    void setShowQdq(bool show) { mScene->setShowQdq(show); }
    bool showQdq() const { return mScene->showQdq(); }
    void setLegendVisible(bool visible);
    GraphLegend* legend() const { return mLegend; }
    void setNodeEngineMark(NodeId node, const GraphScene::EngineMark& mark) { mScene->setNodeEngineMark(node, mark); }
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
    // Selects and centres the box showing `node`.
    void selectNode(NodeId node);
    // The graph nodes of the selected boxes (a block stands for its members).
    QList<NodeId> selectedNodes() const;
    // The keyboard commands of the view (P, Ctrl+1/2/3, +/-, F/0, Esc, L, arrows) as actions with their shortcuts:
    // what the keys do, for menus and Help > Keyboard Shortcuts.
    QList<QAction*> keyActions() const { return mKeyActions; }
    // Emits precisionCycleRequested for the selection (the context menu's action, key P).
    void requestPrecisionCycle();
    // Emits precisionSetRequested for the selection (the context menu's actions, Ctrl+1/2/3 = FP32/FP16/INT8).
    void requestPrecision(ql::Precision precision);

    void zoomIn();
    void zoomOut();
    void fitToWindow();
    double zoomFactor() const { return transform().m11(); }
    // The mouse wheel scrolls and Ctrl+wheel zooms; true swaps them (View > Mouse Wheel Zooms).
    void setWheelZooms(bool zooms) { mWheelZooms = zooms; }
    bool wheelZooms() const { return mWheelZooms; }

signals:
    void nodeSelected(ql::NodeId node);
    void precisionCycleRequested(QList<ql::NodeId> nodes);
    void precisionSetRequested(QList<ql::NodeId> nodes, ql::Precision precision);
    // The view shows a new layout (after setGraph, a visibility change, or an expanded/collapsed block).
    void layoutApplied();
    // The search's current match (0-based, -1 when none) and its number of matches ("3 of 12").
    void searchChanged(int current, int count);

protected:
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void createKeyActions();
    void moveSelection(int key);
    void onLayoutApplied(bool newGraph);
    void onSelectionChanged();
    void showInitialView();
    void focusItem(GraphNodeItem* item);
    GraphNodeItem* currentItem() const;
    GraphNodeItem* neighbour(GraphNodeItem* item, int key) const;
    void showMatch(std::optional<NodeId> node);
    void startSearch(const QString& text);
    void zoomBy(double factor);
    void scrollBy(QPoint delta, bool horizontal);
    void placeLegend();
    void expandBlock(GraphNodeItem* block);

    GraphScene* mScene;
    GraphLegend* mLegend;
    GraphSearch mSearch;
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
