#include "ui/graph/graph_view.h"

#include <QAction>
#include <QContextMenuEvent>
#include <QMenu>
#include <QScrollBar>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <functional>

#include "ui/graph/graph_edge_item.h"
#include "ui/graph/graph_fit.h"
#include "ui/graph/graph_legend.h"
#include "ui/graph/graph_minimap.h"
#include "ui/graph/graph_node_item.h"
#include "ui/model_document.h"

namespace ql::ui {

namespace {

constexpr double kMinZoom = 0.02;
constexpr double kMaxZoom = 4.0;
constexpr double kZoomStep = 1.25;
// A graph whose fit-to-window zoom is below this opens at kReadableZoom at its top instead.
constexpr double kSmallestFitOnOpen = 0.5;
constexpr double kReadableZoom = 0.9;
constexpr int kLegendMargin = 8;
// In the order of their shortcuts Ctrl+1, Ctrl+2, Ctrl+3.
constexpr Precision kEditablePrecisions[] = {Precision::Fp32, Precision::Fp16, Precision::Int8};

}  // namespace

GraphView::GraphView(QWidget* parent)
    : QGraphicsView(parent),
      mScene(new GraphScene(this)),
      mLegend(new GraphLegend(this)),
      mBreadcrumb(new SubgraphBreadcrumb(this)),
      mMinimap(new GraphMinimap(this)),
      mFit(new GraphFit(this)) {
    setScene(mScene);
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    setDragMode(ScrollHandDrag);
    setTransformationAnchor(AnchorUnderMouse);
    setViewportUpdateMode(SmartViewportUpdate);
    setOptimizationFlags(DontSavePainterState);
    setFocusPolicy(Qt::StrongFocus);
    connectScene(mScene);
    mBreadcrumb->hide();
    connect(mBreadcrumb, &SubgraphBreadcrumb::levelRequested, this, &GraphView::closeSubgraphs);
    connect(mMinimap, &GraphMinimap::expandedChanged, this, &GraphView::placeOverlays);
    createKeyActions();
    placeOverlays();
}

// One action per keyboard command: keyPressEvent triggers them, the context menu shows them, and Help > Keyboard
// Shortcuts lists them, so the three always agree.
void GraphView::createKeyActions() {
    auto add = [this](const QString& text, const QList<QKeySequence>& keys, auto slot) {
        auto* action = new QAction(text, this);
        action->setShortcuts(keys);
        action->setShortcutContext(Qt::WidgetShortcut);
        connect(action, &QAction::triggered, this, slot);
        mKeyActions.append(action);
        return action;
    };
    mCycleAction = add(tr("Cycle precision (FP32, FP16, INT8)"), {Qt::Key_P}, [this] { requestPrecisionCycle(); });
    for (int i = 0; i < 3; ++i) {
        const Precision p = kEditablePrecisions[i];
        mSetActions.append(add(tr("Set to %1").arg(precisionLabel(p)), {Qt::CTRL | static_cast<Qt::Key>(Qt::Key_1 + i)},
                               [this, p] { requestPrecision(p); }));
    }
    add(tr("Zoom in"), {Qt::Key_Plus, Qt::Key_Equal}, [this] { zoomIn(); });
    add(tr("Zoom out"), {Qt::Key_Minus}, [this] { zoomOut(); });
    mFitAction = add(tr("Fit to window"), {Qt::Key_F, Qt::Key_0}, [this] { fitToWindow(); });
    add(tr("Clear the selection"), {Qt::Key_Escape}, [this] { shownScene()->clearSelection(); });
    add(tr("Back to the enclosing graph (in a subgraph)"), {Qt::Key_Backspace, QKeySequence(Qt::ALT | Qt::Key_Left)},
        [this] { closeSubgraphs(mLevels.depth() - 1); });
    mLegendAction = add(tr("Show legend"), {Qt::Key_L}, [this](bool on) { setLegendVisible(on); });
    mLegendAction->setCheckable(true);
    mLegendAction->setChecked(true);
    add(tr("Go to the producer of the first input"), {Qt::Key_Up}, [this] { moveSelection(Qt::Key_Up); });
    add(tr("Go to the first consumer"), {Qt::Key_Down}, [this] { moveSelection(Qt::Key_Down); });
    add(tr("Go to the previous sibling"), {Qt::Key_Left}, [this] { moveSelection(Qt::Key_Left); });
    add(tr("Go to the next sibling"), {Qt::Key_Right}, [this] { moveSelection(Qt::Key_Right); });
}

GraphView::~GraphView() {
    // The scene outlives this object's members (it is a child QObject): its items' destruction must not call back.
    disconnect(mScene, nullptr, this, nullptr);
    // So does the minimap: its filter must not see the viewport's last events once this is no longer a GraphView
    // (it asked this for the viewport, a call on a half-destroyed object that UBSan reports).
    viewport()->removeEventFilter(mMinimap);
}

// A scene that is not on screen (the main graph's while a body is shown) re-lays out and selects unseen.
void GraphView::connectScene(GraphScene* scene) {
    connect(scene, &GraphScene::layoutAboutToBeApplied, this, [this, scene] {
        if (scene == shownScene()) mRestoringSelection = true;
    });
    connect(scene, &GraphScene::layoutApplied, this, [this, scene](bool newGraph) {
        if (scene == shownScene()) onLayoutApplied(newGraph);
    });
    connect(scene, &QGraphicsScene::selectionChanged, this, [this, scene] {
        if (scene == shownScene()) onSelectionChanged();
    });
}

void GraphView::setDocument(ModelDocument* document) {
    for (const auto& connection : mDocumentConnections) disconnect(connection);
    mDocumentConnections.clear();
    mDocument = document;
    if (!document) return;
    auto show = [this] {
        if (mDocument && mDocument->model())
            setGraph(mDocument->model()->graph());
        else
            clearGraph();
    };
    mDocumentConnections.append(connect(document, &ModelDocument::modelReplaced, this, show));
    show();
}

void GraphView::setGraph(const Graph& graph) {
    dropSubgraphs();
    mGraph = &graph;
    showCurrentLevel();
    setInteractive(true);
    mScene->setGraph(graph);
    emit graphReplaced();
}

void GraphView::clearGraph() {
    dropSubgraphs();
    mGraph = nullptr;
    showCurrentLevel();
    setInteractive(true);
    mScene->clearGraph();
    emit graphReplaced();
}

void GraphView::showPreview(const std::shared_ptr<GraphSnapshot>& structure) {
    dropSubgraphs();
    mGraph = nullptr;
    mSelectedNodes.clear();
    showCurrentLevel();
    setInteractive(false);  // its nodes are not the document's yet: nothing to select or set
    mScene->setPreview(std::move(*structure));
    emit graphReplaced();
}

void GraphView::endPreview() {
    if (!isPreview()) return;
    if (mDocument && mDocument->model())
        setGraph(mDocument->model()->graph());
    else
        clearGraph();
}

void GraphView::clearNodeBadges() {
    mScene->clearNodeBadges();
    mLevels.clearBadges();
}

void GraphView::forEachScene(const std::function<void(GraphScene&)>& apply) {
    apply(*mScene);
    for (int depth = 1; depth <= mLevels.depth(); ++depth) apply(*mLevels.level(depth).scene);
}

void GraphView::setShowQdq(bool show) {
    forEachScene([show](GraphScene& scene) { scene.setShowQdq(show); });
}

void GraphView::setShowConstants(bool show) {
    forEachScene([show](GraphScene& scene) { scene.setShowConstants(show); });
}

void GraphView::setShowTensorShapes(bool show) {
    forEachScene([show](GraphScene& scene) { scene.setShowTensorShapes(show); });
}

void GraphView::setLegendFillKeys(const QString& title, const QVector<GraphLegendFillKey>& keys) {
    mLegend->setFillKeys(title, keys);
    placeOverlays();
}

void GraphView::setLegendVisible(bool visible) {
    mLegend->setVisible(visible);
    mLegendAction->setChecked(visible);
    placeOverlays();
}

const Graph* GraphView::shownGraph() const {
    return mLevels.depth() == 0 ? mGraph : &mLevels.top().body->graph;
}

QString GraphView::subgraphPath() const {
    return mLevels.depth() == 0 ? QString() : QString::fromStdString(mLevels.top().path);
}

bool GraphView::openSubgraph(NodeId node, const QString& attribute) {
    const Graph* outer = shownGraph();
    if (!outer || node < 0 || static_cast<size_t>(node) >= outer->nodes().size()) return false;
    const Status opened = mLevels.open(*outer, node, attribute.toStdString(), *shownScene(), this, transform());
    if (!opened) {
        emit subgraphOpenFailed(QString::fromStdString(opened.message()));
        return false;
    }
    connectScene(mLevels.top().scene);
    showCurrentLevel();  // empty until its layout arrives (onLayoutApplied shows it whole)
    return true;
}

void GraphView::closeSubgraphs(int depth) {
    if (depth < 0 || depth >= mLevels.depth()) return;
    selectShownNode(returnTo(depth));
}

NodeId GraphView::returnTo(int depth) {
    const NodeId entered = mLevels.level(depth + 1).owner;
    const QTransform view = mLevels.level(depth + 1).returnTransform;
    setScene(depth == 0 ? mScene : mLevels.level(depth).scene);  // before its scene goes
    mLevels.closeAbove(depth);
    showCurrentLevel();
    setTransform(view);
    return entered;
}

// A new graph (or none): its bodies are not the last graph's.
void GraphView::dropSubgraphs() {
    if (mLevels.depth() == 0) return;
    setScene(mScene);
    mLevels.closeAbove(0);
}

void GraphView::showCurrentLevel() {
    mSearch.clear();
    mPendingFocus = kNoId;
    mLastEmitted = kNoId;
    if (scene() != shownScene()) setScene(shownScene());
    shownScene()->clearSelection();
    mSelectedNodes.clear();
    updateBreadcrumb();
    emit searchChanged(-1, 0);
}

QString GraphView::mainGraphName() const {
    const QString file = mDocument && mDocument->model() ? mDocument->fileName() : QString();
    return file.isEmpty() ? tr("model") : file;
}

void GraphView::updateBreadcrumb() {
    mBreadcrumb->setCrumbs(mLevels.crumbs(mainGraphName()));
    mBreadcrumb->setVisible(mLevels.depth() > 0);
    placeOverlays();
}

void GraphView::onLayoutApplied(bool newGraph) {
    const auto& edges = shownScene()->edgeItems();
    mLegend->setShowsOuterScopeEdges(
        std::any_of(edges.begin(), edges.end(), [](const GraphEdgeItem* edge) { return edge->isOuterScope(); }));
    placeOverlays();
    mRestoringSelection = true;
    for (NodeId node : mSelectedNodes) {
        if (GraphNodeItem* item = shownScene()->itemForNode(node)) item->setSelected(true);
    }
    mRestoringSelection = false;
    if (newGraph) showInitialView();
    if (mPendingFocus != kNoId) {
        const NodeId node = mPendingFocus;
        mPendingFocus = kNoId;
        selectShownNode(node);
    } else if (!newGraph && !mSelectedNodes.isEmpty()) {
        if (GraphNodeItem* item = shownScene()->itemForNode(mSelectedNodes.front())) centerOn(item);
    }
    emit layoutApplied();
}

void GraphView::showInitialView() {
    const GraphScene* shown = shownScene();
    const QRectF scene = shown->sceneRect();
    const double fit = std::min(viewport()->width() / scene.width(), viewport()->height() / scene.height());
    if (fit >= kSmallestFitOnOpen) {
        fitWholeScene();
        return;
    }
    setTransform(QTransform::fromScale(kReadableZoom, kReadableZoom));
    // The top of the graph, centred on its first box (usually the input).
    const QRectF first = shown->nodeItems().empty() ? scene : shown->nodeItems().front()->sceneBoundingRect();
    centerOn(first.center().x(), scene.top() + viewport()->height() / 2.0 / kReadableZoom);
}

void GraphView::onSelectionChanged() {
    if (mRestoringSelection) return;
    const std::vector<NodeId> selected = selectedShownNodes();
    mSelectedNodes = QList<NodeId>(selected.begin(), selected.end());
    const QList<QGraphicsItem*> items = shownScene()->selectedItems();
    if (items.size() != 1) return;
    const auto* item = qgraphicsitem_cast<GraphNodeItem*>(items.front());
    if (!item || item->kind() != VisibleKind::Operator) return;
    const NodeId node = shownScene()->nodesOf(item).front();
    if (node == mLastEmitted) return;
    mLastEmitted = node;
    if (mLevels.depth() == 0)
        emit nodeSelected(node);
    else
        emit subgraphNodeSelected(mLevels.top().body, node, subgraphPath(), mLevels.bodyPath());
}

std::vector<NodeId> GraphView::selectedShownNodes() const {
    std::vector<NodeId> nodes;
    for (QGraphicsItem* item : shownScene()->selectedItems()) {
        if (const auto* box = qgraphicsitem_cast<GraphNodeItem*>(item)) {
            for (NodeId node : shownScene()->nodesOf(box)) nodes.push_back(node);
        }
    }
    return nodes;
}

QList<NodeId> GraphView::selectedNodes() const {
    if (mLevels.depth() > 0) return {};
    const std::vector<NodeId> nodes = selectedShownNodes();
    return QList<NodeId>(nodes.begin(), nodes.end());
}

void GraphView::selectNode(NodeId node) {
    if (mLevels.depth() > 0) returnTo(0);
    selectShownNode(node);
}

void GraphView::selectShownNode(NodeId node) {
    GraphNodeItem* item = shownScene()->itemForNode(node);
    if (item) focusItem(item);
}

void GraphView::focusItem(GraphNodeItem* item) {
    shownScene()->clearSelection();
    item->setSelected(true);
    if (zoomFactor() < GraphNodeItem::kTextLevelOfDetail)
        setTransform(QTransform::fromScale(kReadableZoom, kReadableZoom));
    centerOn(item);
}

GraphNodeItem* GraphView::currentItem() const {
    const QList<QGraphicsItem*> items = shownScene()->selectedItems();
    return items.isEmpty() ? nullptr : qgraphicsitem_cast<GraphNodeItem*>(items.front());
}

// Up: the producer of the first input; Down: the first consumer; Left/Right: the other consumers of the same
// producer, or else the boxes on the same row, by x.
GraphNodeItem* GraphView::neighbour(GraphNodeItem* item, int key) const {
    const GraphScene* shown = shownScene();
    const auto& items = shown->nodeItems();
    const auto& up = shown->predecessors(item->index());
    const auto& down = shown->successors(item->index());
    if (key == Qt::Key_Up) return up.empty() ? nullptr : items[static_cast<size_t>(up.front())];
    if (key == Qt::Key_Down) return down.empty() ? nullptr : items[static_cast<size_t>(down.front())];
    std::vector<GraphNodeItem*> row;
    if (!up.empty()) {
        for (int sibling : shown->successors(up.front())) row.push_back(items[static_cast<size_t>(sibling)]);
    }
    std::sort(row.begin(), row.end());
    row.erase(std::unique(row.begin(), row.end()), row.end());
    if (row.size() < 2) {
        row.clear();
        const double y = item->sceneBoundingRect().center().y();
        for (GraphNodeItem* other : items) {
            if (std::abs(other->sceneBoundingRect().center().y() - y) < 1) row.push_back(other);
        }
    }
    std::sort(row.begin(), row.end(), [](auto* a, auto* b) { return a->pos().x() < b->pos().x(); });
    auto it = std::find(row.begin(), row.end(), item);
    if (it == row.end()) return nullptr;
    if (key == Qt::Key_Left) return it == row.begin() ? nullptr : *(it - 1);
    return it + 1 == row.end() ? nullptr : *(it + 1);
}

void GraphView::moveSelection(int key) {
    if (GraphNodeItem* item = currentItem())
        if (GraphNodeItem* next = neighbour(item, key)) focusItem(next);
}

// The key actions (createKeyActions) by their shortcuts. Shift and the keypad are ignored ('+' is Shift+= on many
// layouts). Arrows without a selected box scroll, as in any view.
void GraphView::keyPressEvent(QKeyEvent* event) {
    const Qt::KeyboardModifiers modifiers = event->modifiers() & ~(Qt::ShiftModifier | Qt::KeypadModifier);
    const bool arrow = event->key() >= Qt::Key_Left && event->key() <= Qt::Key_Down && modifiers == Qt::NoModifier;
    const QKeySequence pressed(QKeyCombination(modifiers, static_cast<Qt::Key>(event->key())));
    if (!arrow || currentItem()) {
        for (QAction* action : std::as_const(mKeyActions)) {
            if (!action->shortcuts().contains(pressed)) continue;
            action->trigger();
            return;
        }
    }
    QGraphicsView::keyPressEvent(event);
}

// Wheel scrolls and Ctrl+wheel zooms under the mouse (as in Netron and browsers); setWheelZooms(true) swaps them.
void GraphView::wheelEvent(QWheelEvent* event) {
    const bool control = event->modifiers().testFlag(Qt::ControlModifier);
    if (control == mWheelZooms) {
        scrollBy(event->pixelDelta().isNull() ? event->angleDelta() / 2 : event->pixelDelta(),
                 event->modifiers().testFlag(Qt::ShiftModifier));
        event->accept();
        return;
    }
    const int delta = event->angleDelta().y();
    if (delta != 0) zoomAt(std::pow(1.0015, delta), event->position());
    event->accept();
}

// Shift turns a vertical wheel into a horizontal scroll.
void GraphView::scrollBy(QPoint delta, bool horizontal) {
    if (horizontal && delta.x() == 0) delta = QPoint(delta.y(), 0);
    horizontalScrollBar()->setValue(horizontalScrollBar()->value() - delta.x());
    verticalScrollBar()->setValue(verticalScrollBar()->value() - delta.y());
}

void GraphView::zoomBy(double factor) {
    const double target = std::clamp(zoomFactor() * factor, kMinZoom, kMaxZoom);
    const double applied = target / zoomFactor();
    scale(applied, applied);
}

void GraphView::zoomAt(double factor, QPointF viewportPos) {
    const QPointF anchor = mapToScene(viewportPos.toPoint());
    const ViewportAnchor previous = transformationAnchor();
    setTransformationAnchor(NoAnchor);
    zoomBy(factor);
    setTransformationAnchor(previous);
    const QPointF moved = QPointF(mapFromScene(anchor)) - viewportPos;
    horizontalScrollBar()->setValue(horizontalScrollBar()->value() + qRound(moved.x()));
    verticalScrollBar()->setValue(verticalScrollBar()->value() + qRound(moved.y()));
}

void GraphView::zoomIn() {
    zoomBy(kZoomStep);
}

void GraphView::zoomOut() {
    zoomBy(1.0 / kZoomStep);
}

void GraphView::fitToWindow() {
    mFit->fitReadably();
}

void GraphView::fitWholeScene() {
    if (!shownScene()->layout()) return;
    fitInView(shownScene()->sceneRect(), Qt::KeepAspectRatio);
    // Small graphs: do not blow the boxes up.
    if (zoomFactor() > 1.25) setTransform(QTransform::fromScale(1.25, 1.25));
    if (zoomFactor() < kMinZoom) setTransform(QTransform::fromScale(kMinZoom, kMinZoom));
    centerOn(shownScene()->sceneRect().center());
}

// Inside a body selectedNodes() is empty: the plan has no entry for a body's nodes.
void GraphView::requestPrecisionCycle() {
    const QList<NodeId> nodes = selectedNodes();
    if (!nodes.isEmpty()) emit precisionCycleRequested(nodes);
}

void GraphView::requestPrecision(Precision precision) {
    const QList<NodeId> nodes = selectedNodes();
    if (!nodes.isEmpty()) emit precisionSetRequested(nodes, precision);
}

void GraphView::expandBlock(GraphNodeItem* block) {
    GraphScene* shown = shownScene();
    const std::vector<NodeId> members = shown->nodesOf(block);
    if (!members.empty()) mPendingFocus = members.front();
    shown->expandScope(shown->layout()->graph.nodes[static_cast<size_t>(block->index())].scope);
}

void GraphView::openDefaultSubgraph(GraphNodeItem* item) {
    const NodeId node = shownScene()->nodesOf(item).front();
    if (const SnapshotSubgraph* body = defaultSubgraph(shownScene()->snapshot().nodes[static_cast<size_t>(node)]))
        openSubgraph(node, QString::fromStdString(body->attribute));
}

void GraphView::mouseDoubleClickEvent(QMouseEvent* event) {
    auto* item = qgraphicsitem_cast<GraphNodeItem*>(itemAt(event->pos()));
    if (item && item->kind() == VisibleKind::Block) {
        expandBlock(item);
        return;
    }
    if (item && item->kind() == VisibleKind::Operator) {
        openDefaultSubgraph(item);
        return;
    }
    QGraphicsView::mouseDoubleClickEvent(event);
}

// "Open then_branch (4 nodes)" per body of a control-flow node, and the way back out of a body.
void GraphView::addSubgraphActions(QMenu& menu, GraphNodeItem* item) {
    if (item && item->kind() == VisibleKind::Operator) {
        const NodeId node = shownScene()->nodesOf(item).front();
        for (const SnapshotSubgraph& body : shownScene()->snapshot().nodes[static_cast<size_t>(node)].subgraphs) {
            const QString attribute = QString::fromStdString(body.attribute);
            const QString text = body.nodeCount == 1 ? tr("Open %1 (1 node)").arg(attribute)
                                                     : tr("Open %1 (%2 nodes)").arg(attribute).arg(body.nodeCount);
            menu.addAction(text, this, [this, node, attribute] { openSubgraph(node, attribute); });
        }
    }
    if (mLevels.depth() > 0) {
        const int up = mLevels.depth() - 1;
        const QString name = up == 0 ? mainGraphName() : QString::fromStdString(mLevels.level(up).attribute);
        menu.addAction(tr("Back to %1").arg(name), this, [this, up] { closeSubgraphs(up); })
            ->setShortcut(Qt::Key_Backspace);
    }
    if (!menu.isEmpty()) menu.addSeparator();
}

// `onSelection`: the menu is for the selected nodes (a click on a node, or the Menu key). On empty space the actions
// would change nodes away from the mouse, the ones selected before.
void GraphView::addPrecisionActions(QMenu& menu, bool onSelection) {
    if (mLevels.depth() > 0) {
        menu.addAction(tr("Precision: the plan applies to the main graph"))->setEnabled(false);
        menu.addSeparator();
        return;
    }
    if (!onSelection || selectedNodes().isEmpty()) return;
    menu.addAction(mCycleAction);
    menu.addActions(mSetActions);
    menu.addSeparator();
}

void GraphView::contextMenuEvent(QContextMenuEvent* event) {
    auto* item = qgraphicsitem_cast<GraphNodeItem*>(itemAt(event->pos()));
    if (item && !item->isSelected()) focusItem(item);
    QMenu menu(this);
    addSubgraphActions(menu, item);
    addPrecisionActions(menu, item || event->reason() != QContextMenuEvent::Mouse);
    GraphScene* shown = shownScene();
    if (item && item->kind() == VisibleKind::Block)
        menu.addAction(tr("Expand block"), this, [this, item] { expandBlock(item); });
    for (const std::string& scope : shown->collapsibleScopes(item)) {
        menu.addAction(tr("Collapse %1").arg(QString::fromStdString(scope)), this,
                       [shown, scope] { shown->collapseScope(scope); });
    }
    menu.addAction(tr("Collapse all"), shown, &GraphScene::collapseAll);
    menu.addAction(tr("Expand all"), shown, &GraphScene::expandAll);
    menu.addSeparator();
    QAction* qdq = menu.addAction(tr("Show Q/DQ nodes"), this, &GraphView::setShowQdq);
    qdq->setCheckable(true);
    qdq->setChecked(shown->showQdq());
    QAction* constants = menu.addAction(tr("Show Constant nodes"), this, &GraphView::setShowConstants);
    constants->setCheckable(true);
    constants->setChecked(shown->showConstants());
    menu.addAction(mLegendAction);
    menu.addAction(mFitAction);
    menu.exec(event->globalPos());
}

void GraphView::resizeEvent(QResizeEvent* event) {
    QGraphicsView::resizeEvent(event);
    placeOverlays();
}

// The breadcrumb and the legend get strips of their own above and under the viewport (viewport margins), so they
// never cover a box, whatever the zoom or scroll position; the overview sits at the right end of the legend's.
void GraphView::placeOverlays() {
    mLegend->fitToWidth(viewport()->width() - 3 * kLegendMargin - mMinimap->width());
    const int bottom = std::max(mLegend->isHidden() ? 0 : mLegend->height(), mMinimap->height()) + 2 * kLegendMargin;
    const int top = mBreadcrumb->isHidden() ? 0 : mBreadcrumb->sizeHint().height();
    if (viewportMargins() != QMargins(0, top, 0, bottom)) setViewportMargins(0, top, 0, bottom);
    const QRect area = viewport()->geometry();
    mLegend->move(area.left() + kLegendMargin, area.bottom() + 1 + kLegendMargin);
    mLegend->raise();
    mMinimap->move(area.right() + 1 - kLegendMargin - mMinimap->width(), area.bottom() + 1 + kLegendMargin);
    mBreadcrumb->setGeometry(area.left(), area.top() - top, area.width(), top);
    mBreadcrumb->raise();
}

}  // namespace ql::ui
