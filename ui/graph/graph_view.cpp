#include "ui/graph/graph_view.h"

#include <QAction>
#include <QContextMenuEvent>
#include <QMenu>
#include <QScrollBar>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "ui/graph/graph_legend.h"
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
    : QGraphicsView(parent), mScene(new GraphScene(this)), mLegend(new GraphLegend(this)) {
    setScene(mScene);
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    setDragMode(ScrollHandDrag);
    setTransformationAnchor(AnchorUnderMouse);
    setViewportUpdateMode(SmartViewportUpdate);
    setOptimizationFlags(DontSavePainterState);
    setFocusPolicy(Qt::StrongFocus);
    connect(mScene, &GraphScene::layoutAboutToBeApplied, this, [this] { mRestoringSelection = true; });
    connect(mScene, &GraphScene::layoutApplied, this, &GraphView::onLayoutApplied);
    connect(mScene, &QGraphicsScene::selectionChanged, this, &GraphView::onSelectionChanged);
    createKeyActions();
    placeLegend();
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
    add(tr("Clear the selection"), {Qt::Key_Escape}, [this] { mScene->clearSelection(); });
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
    mSearch.clear();
    mPendingFocus = kNoId;
    mSelectedNodes.clear();
    mLastEmitted = kNoId;
    mScene->setGraph(graph);
}

void GraphView::clearGraph() {
    mSearch.clear();
    mPendingFocus = kNoId;
    mSelectedNodes.clear();
    mLastEmitted = kNoId;
    mScene->clearGraph();
}

void GraphView::setLegendFillKeys(const QString& title, const QVector<GraphLegendFillKey>& keys) {
    mLegend->setFillKeys(title, keys);
    placeLegend();
}

void GraphView::setLegendVisible(bool visible) {
    mLegend->setVisible(visible);
    mLegendAction->setChecked(visible);
    placeLegend();
}

void GraphView::onLayoutApplied(bool newGraph) {
    mRestoringSelection = true;
    for (NodeId node : mSelectedNodes) {
        if (GraphNodeItem* item = mScene->itemForNode(node)) item->setSelected(true);
    }
    mRestoringSelection = false;
    if (newGraph) showInitialView();
    if (mPendingFocus != kNoId) {
        const NodeId node = mPendingFocus;
        mPendingFocus = kNoId;
        selectNode(node);
    } else if (!newGraph && !mSelectedNodes.isEmpty()) {
        if (GraphNodeItem* item = mScene->itemForNode(mSelectedNodes.front())) centerOn(item);
    }
    emit layoutApplied();
}

void GraphView::showInitialView() {
    const QRectF scene = mScene->sceneRect();
    const double fit = std::min(viewport()->width() / scene.width(), viewport()->height() / scene.height());
    if (fit >= kSmallestFitOnOpen) {
        fitToWindow();
        return;
    }
    setTransform(QTransform::fromScale(kReadableZoom, kReadableZoom));
    // The top of the graph, centred on its first box (usually the input).
    const QRectF first = mScene->nodeItems().empty() ? scene : mScene->nodeItems().front()->sceneBoundingRect();
    centerOn(first.center().x(), scene.top() + viewport()->height() / 2.0 / kReadableZoom);
}

void GraphView::onSelectionChanged() {
    if (mRestoringSelection) return;
    mSelectedNodes = selectedNodes();
    const QList<QGraphicsItem*> items = mScene->selectedItems();
    if (items.size() != 1) return;
    const auto* item = qgraphicsitem_cast<GraphNodeItem*>(items.front());
    if (!item || item->kind() != VisibleKind::Operator) return;
    const NodeId node = mScene->nodesOf(item).front();
    if (node == mLastEmitted) return;
    mLastEmitted = node;
    emit nodeSelected(node);
}

QList<NodeId> GraphView::selectedNodes() const {
    QList<NodeId> nodes;
    for (QGraphicsItem* item : mScene->selectedItems()) {
        if (const auto* box = qgraphicsitem_cast<GraphNodeItem*>(item)) {
            for (NodeId node : mScene->nodesOf(box)) nodes.append(node);
        }
    }
    return nodes;
}

void GraphView::startSearch(const QString& text) {
    mSearch.start(mScene->snapshot(), text);
}

bool GraphView::findAndCenter(const QString& text) {
    if (!mScene->hasGraph()) return false;
    startSearch(text.trimmed());
    showMatch(mSearch.currentNode());
    return mSearch.count() > 0;
}

void GraphView::findNext(const QString& text) {
    if (text.trimmed() != mSearch.text()) {
        findAndCenter(text);
        return;
    }
    showMatch(mSearch.next());
}

void GraphView::findPrevious(const QString& text) {
    if (text.trimmed() != mSearch.text()) {
        findAndCenter(text);
        return;
    }
    showMatch(mSearch.previous());
}

void GraphView::showMatch(std::optional<NodeId> node) {
    emit searchChanged(mSearch.current(), mSearch.count());
    if (!node) return;
    if (mScene->layout() == nullptr || mScene->isLayoutPending() || mScene->revealNode(*node)) {
        mPendingFocus = *node;  // selected when the layout that shows it arrives
        return;
    }
    selectNode(*node);
}

void GraphView::selectNode(NodeId node) {
    GraphNodeItem* item = mScene->itemForNode(node);
    if (item) focusItem(item);
}

void GraphView::focusItem(GraphNodeItem* item) {
    mScene->clearSelection();
    item->setSelected(true);
    if (zoomFactor() < GraphNodeItem::kTextLevelOfDetail)
        setTransform(QTransform::fromScale(kReadableZoom, kReadableZoom));
    centerOn(item);
}

GraphNodeItem* GraphView::currentItem() const {
    const QList<QGraphicsItem*> items = mScene->selectedItems();
    return items.isEmpty() ? nullptr : qgraphicsitem_cast<GraphNodeItem*>(items.front());
}

// Up: the producer of the first input; Down: the first consumer; Left/Right: the other consumers of the same
// producer, or else the boxes on the same row, by x.
GraphNodeItem* GraphView::neighbour(GraphNodeItem* item, int key) const {
    const auto& items = mScene->nodeItems();
    const auto& up = mScene->predecessors(item->index());
    const auto& down = mScene->successors(item->index());
    if (key == Qt::Key_Up) return up.empty() ? nullptr : items[static_cast<size_t>(up.front())];
    if (key == Qt::Key_Down) return down.empty() ? nullptr : items[static_cast<size_t>(down.front())];
    std::vector<GraphNodeItem*> row;
    if (!up.empty()) {
        for (int sibling : mScene->successors(up.front())) row.push_back(items[static_cast<size_t>(sibling)]);
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
    const bool arrow = event->key() >= Qt::Key_Left && event->key() <= Qt::Key_Down;
    const Qt::KeyboardModifiers modifiers = event->modifiers() & ~(Qt::ShiftModifier | Qt::KeypadModifier);
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
    if (delta != 0) zoomBy(std::pow(1.0015, delta));
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

void GraphView::zoomIn() {
    zoomBy(kZoomStep);
}

void GraphView::zoomOut() {
    zoomBy(1.0 / kZoomStep);
}

void GraphView::fitToWindow() {
    if (!mScene->layout()) return;
    fitInView(mScene->sceneRect(), Qt::KeepAspectRatio);
    // Small graphs: do not blow the boxes up.
    if (zoomFactor() > 1.25) setTransform(QTransform::fromScale(1.25, 1.25));
    if (zoomFactor() < kMinZoom) setTransform(QTransform::fromScale(kMinZoom, kMinZoom));
    centerOn(mScene->sceneRect().center());
}

void GraphView::requestPrecisionCycle() {
    const QList<NodeId> nodes = selectedNodes();
    if (!nodes.isEmpty()) emit precisionCycleRequested(nodes);
}

void GraphView::requestPrecision(Precision precision) {
    const QList<NodeId> nodes = selectedNodes();
    if (!nodes.isEmpty()) emit precisionSetRequested(nodes, precision);
}

void GraphView::expandBlock(GraphNodeItem* block) {
    const std::vector<NodeId> members = mScene->nodesOf(block);
    if (!members.empty()) mPendingFocus = members.front();
    mScene->expandScope(mScene->layout()->graph.nodes[static_cast<size_t>(block->index())].scope);
}

void GraphView::mouseDoubleClickEvent(QMouseEvent* event) {
    auto* item = qgraphicsitem_cast<GraphNodeItem*>(itemAt(event->pos()));
    if (item && item->kind() == VisibleKind::Block) {
        expandBlock(item);
        return;
    }
    QGraphicsView::mouseDoubleClickEvent(event);
}

void GraphView::contextMenuEvent(QContextMenuEvent* event) {
    auto* item = qgraphicsitem_cast<GraphNodeItem*>(itemAt(event->pos()));
    if (item && !item->isSelected()) focusItem(item);
    QMenu menu(this);
    if (!selectedNodes().isEmpty()) {
        menu.addAction(mCycleAction);
        menu.addActions(mSetActions);
        menu.addSeparator();
    }
    if (item && item->kind() == VisibleKind::Block)
        menu.addAction(tr("Expand block"), this, [this, item] { expandBlock(item); });
    for (const std::string& scope : mScene->collapsibleScopes(item)) {
        menu.addAction(tr("Collapse %1").arg(QString::fromStdString(scope)), this,
                       [this, scope] { mScene->collapseScope(scope); });
    }
    menu.addAction(tr("Collapse all"), mScene, &GraphScene::collapseAll);
    menu.addAction(tr("Expand all"), mScene, &GraphScene::expandAll);
    menu.addSeparator();
    QAction* qdq = menu.addAction(tr("Show Q/DQ nodes"), this, [this](bool on) { mScene->setShowQdq(on); });
    qdq->setCheckable(true);
    qdq->setChecked(mScene->showQdq());
    QAction* constants =
        menu.addAction(tr("Show Constant nodes"), this, [this](bool on) { mScene->setShowConstants(on); });
    constants->setCheckable(true);
    constants->setChecked(mScene->showConstants());
    menu.addAction(mLegendAction);
    menu.addAction(mFitAction);
    menu.exec(event->globalPos());
}

void GraphView::resizeEvent(QResizeEvent* event) {
    QGraphicsView::resizeEvent(event);
    placeLegend();
}

// The legend gets a strip of its own under the viewport (a bottom viewport margin), so it never covers a box,
// whatever the zoom or scroll position.
void GraphView::placeLegend() {
    mLegend->fitToWidth(viewport()->width() - 2 * kLegendMargin);
    const int strip = mLegend->isHidden() ? 0 : mLegend->height() + 2 * kLegendMargin;
    if (viewportMargins().bottom() != strip) setViewportMargins(0, 0, 0, strip);
    const QRect area = viewport()->geometry();
    mLegend->move(area.left() + kLegendMargin, area.bottom() + 1 + kLegendMargin);
    mLegend->raise();
}

}  // namespace ql::ui
