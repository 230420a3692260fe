#include "ui/graph/graph_scene.h"

#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include <algorithm>
#include <deque>

#include "ui/graph/graph_edge_item.h"
#include "ui/graph/graph_node_item.h"
#include "ui/graph/node_style.h"

namespace ql::ui {

GraphScene::GraphScene(QObject* parent) : QGraphicsScene(parent) {
    connect(&mEngine, &GraphLayoutEngine::layoutFinished, this, &GraphScene::applyLayout);
}

GraphScene::~GraphScene() = default;

void GraphScene::setGraph(const Graph& graph) {
    // The model a preview showed: its structure is there already (a 100k-node copy saved on the GUI thread).
    if (mPreview && mSnapshot.takeTypes(graph)) {
        const bool previewShown = !mAwaitingFirstLayout;
        showSnapshot(std::move(mSnapshot), false);
        mAwaitingFirstLayout = !previewShown;  // the view stays where the user took the preview
        return;
    }
    showSnapshot(GraphSnapshot::from(graph), false);
}

void GraphScene::setPreview(GraphSnapshot structure) {
    showSnapshot(std::move(structure), true);
}

void GraphScene::showSnapshot(GraphSnapshot snapshot, bool preview) {
    mSnapshot = std::move(snapshot);
    mPreview = preview;
    // Columns were for the last graph's fit.
    mLayoutOptions.wrapWidth = 0;
    mLayoutOptions.wrapHeight = 0;
    mHasGraph = true;
    mAwaitingFirstLayout = true;
    mVisibility.expandedScopes.clear();
    mVisibility.collapsedScopes.clear();
    mPrecisions.clear();
    mBadges.clear();
    mEngineMarks.clear();
    relayout();
}

void GraphScene::clearGraph() {
    mSnapshot = {};
    mHasGraph = false;
    mPreview = false;
    mAwaitingFirstLayout = false;
    mPrecisions.clear();
    mBadges.clear();
    mEngineMarks.clear();
    mLayout.reset();
    mItems.clear();
    mEdgeItems.clear();
    mPredecessors.clear();
    mSuccessors.clear();
    clear();
    // Supersede a layout in flight: its result must not bring the old graph back.
    mEngine.requestLayout({}, mLayoutOptions);
}

void GraphScene::setShowQdq(bool show) {
    if (mVisibility.showQdq == show) return;
    mVisibility.showQdq = show;
    relayout();
}

void GraphScene::setShowConstants(bool show) {
    if (mVisibility.showConstants == show) return;
    mVisibility.showConstants = show;
    relayout();
}

void GraphScene::expandScope(const std::string& scope) {
    mVisibility.collapsedScopes.erase(scope);
    mVisibility.expandedScopes.insert(scope);
    relayout();
}

void GraphScene::collapseScope(const std::string& scope) {
    const auto size = mScopeSizes.find(scope);
    if (size == mScopeSizes.end() || size->second < 2) return;  // a block of one would show the op itself
    // Closing a scope closes what was opened inside it too.
    std::erase_if(mVisibility.expandedScopes, [&](const std::string& s) { return s.starts_with(scope); });
    mVisibility.collapsedScopes.insert(scope);
    relayout();
}

std::vector<std::string> GraphScene::collapsibleScopes(const GraphNodeItem* item) const {
    if (!mLayout || item == nullptr) return {};
    const VisibleNode& node = mLayout->graph.nodes[static_cast<size_t>(item->index())];
    std::vector<std::string> scopes;
    if (node.kind == VisibleKind::Operator)
        scopes = scopePrefixes(scopeSource(mSnapshot.nodes[static_cast<size_t>(node.node)]));
    else if (node.kind == VisibleKind::Block)
        scopes = scopePrefixes(node.scope);
    std::erase_if(scopes, [&](const std::string& scope) {
        const auto size = mScopeSizes.find(scope);
        return size == mScopeSizes.end() || size->second < 2;
    });
    return scopes;
}

// The outermost scopes, looking inside those that hold the whole graph (one block of everything shows nothing).
void GraphScene::collapseAll() {
    if (!mLayout) return;
    const size_t whole = mLayout->graph.operatorCount;
    auto holdsWholeGraph = [&](const std::string& scope) { return mScopeSizes.at(scope) == whole; };
    mVisibility.expandedScopes.clear();
    mVisibility.collapsedScopes.clear();
    for (const auto& [scope, size] : mScopeSizes) {
        if (size >= 2 && size < whole && std::ranges::all_of(scopePrefixes(scope), holdsWholeGraph))
            mVisibility.collapsedScopes.insert(scope);
    }
    relayout();
}

void GraphScene::collapseToLevel(int level) {
    const size_t whole = mLayout ? mLayout->graph.operatorCount : 0;
    mVisibility.expandedScopes.clear();
    mVisibility.collapsedScopes.clear();
    for (const auto& [scope, size] : mScopeSizes) {
        const int depth = scopeLevel(scope);
        if (depth == level && size >= 2 && size < whole)
            mVisibility.collapsedScopes.insert(scope);
        else if (depth <= level)
            mVisibility.expandedScopes.insert(scope);
    }
    relayout();
}

void GraphScene::expandAll() {
    mVisibility.collapsedScopes.clear();
    for (const auto& entry : mScopeSizes) mVisibility.expandedScopes.insert(entry.first);
    relayout();
}

bool GraphScene::revealNode(NodeId node) {
    if (!mLayout || node < 0 || static_cast<size_t>(node) >= mLayout->graph.itemOfNode.size()) return false;
    const int item = mLayout->graph.itemOfNode[static_cast<size_t>(node)];
    if (item < 0 || mLayout->graph.nodes[static_cast<size_t>(item)].kind != VisibleKind::Block) return false;
    for (const std::string& prefix : scopePrefixes(scopeSource(mSnapshot.nodes[static_cast<size_t>(node)]))) {
        mVisibility.collapsedScopes.erase(prefix);
        mVisibility.expandedScopes.insert(prefix);
    }
    relayout();
    return true;
}

void GraphScene::setCollapseThresholds(size_t collapseAbove, size_t collapsedBudget) {
    mVisibility.collapseAbove = collapseAbove;
    mVisibility.collapsedBudget = collapsedBudget;
    if (mHasGraph) relayout();
}

void GraphScene::setLayoutOptions(const LayoutOptions& options, bool relayout) {
    mLayoutOptions = options;
    if (!mHasGraph || !relayout) return;
    // The same boxes, unless others are on their way: building them again from a 100k-node graph took 100 ms.
    if (mLayout && !mEngine.isBusy())
        mEngine.requestLayout(mLayout->graph, mLayoutOptions);
    else
        this->relayout();
}

void GraphScene::relayout() {
    if (!mHasGraph) return;
    mScopeSizes = scopeSizes(mSnapshot, mVisibility);
    VisibleGraph visible = buildVisibleGraph(mSnapshot, mVisibility);
    for (VisibleNode& node : visible.nodes) mMetrics.size(node);
    mEngine.requestLayout(std::move(visible), mLayoutOptions);
}

void GraphScene::applyLayout(quint64, std::shared_ptr<const GraphLayout> layout) {
    if (!mHasGraph) return;
    emit layoutAboutToBeApplied();
    clear();
    mItems.clear();
    mEdgeItems.clear();
    mLayout = std::move(layout);
    const VisibleGraph& graph = mLayout->graph;
    for (size_t i = 0; i < graph.nodes.size(); ++i) {
        const VisibleNode& node = graph.nodes[i];
        const LayoutRect& r = mLayout->nodeRects[i];
        const bool quantized = node.kind == VisibleKind::Operator && !mVisibility.showQdq &&
                               mSnapshot.nodes[static_cast<size_t>(node.node)].quantized;
        auto* item =
            new GraphNodeItem(static_cast<int>(i), node, mMetrics, QRectF(r.x, r.y, r.width, r.height), quantized);
        if (node.kind == VisibleKind::Operator) addOpenHint(item, mSnapshot.nodes[static_cast<size_t>(node.node)]);
        addItem(item);
        mItems.push_back(item);
        refreshDecorations(item);
    }
    addEdgeItems();
    setSceneRect(
        QRectF(-kSceneMargin, -kSceneMargin, mLayout->width + 2 * kSceneMargin, mLayout->height + 2 * kSceneMargin));
    const bool newGraph = mAwaitingFirstLayout;
    mAwaitingFirstLayout = false;
    emit layoutApplied(newGraph);
}

void GraphScene::addOpenHint(GraphNodeItem* item, const SnapshotNode& node) const {
    if (const SnapshotSubgraph* body = defaultSubgraph(node)) {
        item->addToolTipLine(node.subgraphs.size() > 1
                                 ? tr("Double-click to open %1 (the context menu opens the others)")
                                       .arg(QString::fromStdString(body->attribute))
                                 : tr("Double-click to open %1").arg(QString::fromStdString(body->attribute)));
    }
}

void GraphScene::addEdgeItems() {
    const VisibleGraph& graph = mLayout->graph;
    mPredecessors.assign(graph.nodes.size(), {});
    mSuccessors.assign(graph.nodes.size(), {});
    for (size_t e = 0; e < graph.edges.size(); ++e) {
        const VisibleEdge& edge = graph.edges[e];
        mSuccessors[static_cast<size_t>(edge.from)].push_back(edge.to);
        mPredecessors[static_cast<size_t>(edge.to)].push_back(edge.from);
        if (mLayout->edgeRoutes[e].points.empty()) continue;
        auto* item = new GraphEdgeItem(mLayout->edgeRoutes[e], edge, edgeToolTip(edge), edgeLabel(edge));
        item->setLabelVisible(mShowTensorShapes);
        addItem(item);
        mEdgeItems.push_back(item);
    }
    crowdOutOverlappingLabels();
}

// On a dense graph the shape labels at the middles of neighbouring edges overlapped into an unreadable smear. Each
// label is kept unless it would cover one kept before it (graph order), with a little air between them; label rects
// are in scene units, so the choice holds at every zoom and every repaint agrees with it.
void GraphScene::crowdOutOverlappingLabels() {
    std::vector<QRectF> kept;
    for (GraphEdgeItem* item : mEdgeItems) {
        if (item->label().isEmpty()) continue;
        const QRectF rect = item->labelRect().adjusted(-2, -1, 2, 1);
        const bool crowded =
            std::any_of(kept.begin(), kept.end(), [&](const QRectF& other) { return other.intersects(rect); });
        item->setLabelCrowded(crowded);
        if (!crowded) kept.push_back(rect);
    }
}

// "<b>x</b> float32 [2,8]"; an outer-scope edge says who reads the tensor where: "<b>x → If_0</b> (read inside
// then_branch, else_branch)".
QString GraphScene::edgeToolTip(const VisibleEdge& edge) const {
    const SnapshotValue& value = mSnapshot.values[static_cast<size_t>(edge.value)];
    const QString name = QString::fromStdString(value.name).toHtmlEscaped();
    const QString type = QString::fromStdString(value.typeText).toHtmlEscaped();
    QString tip;
    if (edge.outerScope && edge.reader != kNoId) {
        const SnapshotNode& reader = mSnapshot.nodes[static_cast<size_t>(edge.reader)];
        QStringList bodies;
        for (const std::string& body : bodiesReading(reader, edge.value)) bodies << QString::fromStdString(body);
        const QString where = bodies.isEmpty() ? tr("the node's bodies") : bodies.join(QStringLiteral(", "));
        tip = tr("<b>%1 %2 %3</b> (read inside %4)<br>%5")
                  .arg(name, QString(QChar(0x2192)), QString::fromStdString(reader.name).toHtmlEscaped(),
                       where.toHtmlEscaped(), type);
    } else {
        tip = QStringLiteral("<b>%1</b><br>%2").arg(name, type);
    }
    if (edge.count > 1) tip += QStringLiteral("<br>and %1 more tensors").arg(edge.count - 1);
    return tip;
}

// The shape of the tensor, as Netron writes it: "float32 [1,3,224,224]" -> "1×3×224×224", its dims as boxes show
// them (compactTypeText); the tool tip keeps them whole.
QString GraphScene::edgeLabel(const VisibleEdge& edge) const {
    if (edge.count > 1) return QStringLiteral("%1 tensors").arg(edge.count);
    const QString type =
        QString::fromStdString(compactTypeText(mSnapshot.values[static_cast<size_t>(edge.value)].typeText));
    const qsizetype open = type.indexOf(QLatin1Char('['));
    const qsizetype close = type.lastIndexOf(QLatin1Char(']'));
    if (open < 0 || close <= open) return type;
    return type.mid(open + 1, close - open - 1).split(QLatin1Char(',')).join(QChar(0x00d7));
}

void GraphScene::setShowTensorShapes(bool show) {
    mShowTensorShapes = show;
    for (GraphEdgeItem* item : mEdgeItems) item->setLabelVisible(show);
}

void GraphScene::drawForeground(QPainter* painter, const QRectF& rect) {
    const double lod = QStyleOptionGraphicsItem::levelOfDetailFromTransform(painter->worldTransform());
    painter->setRenderHint(QPainter::Antialiasing);
    if (!GraphNodeItem::namesShownAt(lod)) paintOverviewBadges(painter, rect, lod);
    if (!mShowTensorShapes || lod < GraphNodeItem::kTextLevelOfDetail) return;
    for (const GraphEdgeItem* item : mEdgeItems)
        if (item->isVisible() && item->isLabelVisible() && item->labelRect().intersects(rect))
            item->paintLabel(painter);
}

// Zoomed out (Fit to Window on a big graph) the boxes' own badges shrink to nothing, yet which layers have findings
// is what the overview is for: each keeps a dot of a fixed size in pixels at its box's top-right corner.
void GraphScene::paintOverviewBadges(QPainter* painter, const QRectF& rect, double lod) const {
    constexpr double kDotPixels = 10;
    const double reach = kDotPixels / lod;
    const QRectF exposed = rect.adjusted(-reach, -reach, reach, reach);
    const QTransform toDevice = painter->worldTransform();
    painter->save();
    painter->resetTransform();
    painter->setPen(QPen(Qt::white, 1.5));
    for (const GraphNodeItem* item : mItems) {
        if (!item->badge() || !item->isVisible()) continue;
        const QPointF corner = item->mapToScene(item->boxRect().topRight());
        if (!exposed.contains(corner)) continue;
        painter->setBrush(severityColor(*item->badge()));
        painter->drawEllipse(toDevice.map(corner), kDotPixels / 2, kDotPixels / 2);
    }
    painter->restore();
}

void GraphScene::setNodePrecision(NodeId node, Precision precision) {
    mPrecisions[node] = precision;
    refreshDecorationsOf(node);
    emit decorationsChanged();
}

void GraphScene::setNodePrecisions(const std::vector<Precision>& precisions) {
    mPrecisions.clear();
    mPrecisions.reserve(precisions.size());
    for (size_t node = 0; node < precisions.size(); ++node) mPrecisions[static_cast<NodeId>(node)] = precisions[node];
    refreshAllDecorations();
    emit decorationsChanged();
}

void GraphScene::clearNodePrecision(NodeId node) {
    mPrecisions.erase(node);
    refreshDecorationsOf(node);
    emit decorationsChanged();
}

void GraphScene::clearNodePrecisions() {
    mPrecisions.clear();
    refreshAllDecorations();
    emit decorationsChanged();
}

std::optional<Precision> GraphScene::nodePrecision(NodeId node) const {
    auto it = mPrecisions.find(node);
    if (it == mPrecisions.end()) return std::nullopt;
    return it->second;
}

void GraphScene::setNodeBadge(NodeId node, Severity severity, const QString& text) {
    mBadges[node] = {severity, text};
    refreshDecorationsOf(node);
}

void GraphScene::setNodeBadges(const std::vector<NodeBadge>& badges) {
    mBadges.clear();
    mBadges.reserve(badges.size());
    for (const NodeBadge& badge : badges) mBadges.try_emplace(badge.node, Badge{badge.severity, badge.text});
    refreshAllDecorations();
}

void GraphScene::clearNodeBadge(NodeId node) {
    mBadges.erase(node);
    refreshDecorationsOf(node);
}

void GraphScene::clearNodeBadges() {
    mBadges.clear();
    refreshAllDecorations();
}

void GraphScene::setNodeEngineMark(NodeId node, const EngineMark& mark) {
    mEngineMarks[node] = mark;
    refreshDecorationsOf(node);
    emit decorationsChanged();
}

void GraphScene::setNodeEngineMarks(std::unordered_map<NodeId, EngineMark> marks) {
    mEngineMarks = std::move(marks);
    refreshAllDecorations();
    emit decorationsChanged();
}

void GraphScene::clearEngineMarks() {
    mEngineMarks.clear();
    refreshAllDecorations();
    emit decorationsChanged();
}

void GraphScene::refreshEngineMark(GraphNodeItem* item, const std::vector<NodeId>& nodes) const {
    const EngineMark* shown = nullptr;
    bool mismatch = false;
    for (NodeId node : nodes) {
        const auto mark = mEngineMarks.find(node);
        if (mark == mEngineMarks.end()) continue;
        mismatch = mismatch || mark->second.mismatch;
        if (!shown || mark->second.weight > shown->weight) shown = &mark->second;
    }
    if (!shown) {
        item->setEngineMark(std::nullopt, {}, false);
        return;
    }
    item->setEngineMark(shown->fill, shown->text, mismatch);
}

void GraphScene::refreshAllDecorations() const {
    for (GraphNodeItem* item : mItems) refreshDecorations(item);
}

void GraphScene::refreshDecorationsOf(NodeId node) {
    if (!mLayout || node < 0 || static_cast<size_t>(node) >= mLayout->graph.itemOfNode.size()) return;
    const int index = mLayout->graph.itemOfNode[static_cast<size_t>(node)];
    if (index >= 0) refreshDecorations(mItems[static_cast<size_t>(index)]);
}

// A block shows its members' precision when they all agree, and its most severe finding.
void GraphScene::refreshDecorations(GraphNodeItem* item) const {
    const std::vector<NodeId> nodes = nodesOf(item);
    std::optional<Precision> precision;
    bool uniform = !nodes.empty();
    const Badge* worst = nullptr;
    int findings = 0;
    for (NodeId node : nodes) {
        const std::optional<Precision> p = nodePrecision(node);
        if (!p || (precision && *precision != *p)) uniform = false;
        precision = p;
        auto badge = mBadges.find(node);
        if (badge == mBadges.end()) continue;
        ++findings;
        if (!worst || badge->second.severity < worst->severity) worst = &badge->second;
    }
    item->setPrecision(uniform ? precision : std::nullopt);
    refreshEngineMark(item, nodes);
    if (!worst) {
        item->setBadge(std::nullopt, {});
        return;
    }
    item->setBadge(worst->severity, findings > 1
                                        ? QStringLiteral("%1 findings inside; worst: %2").arg(findings).arg(worst->text)
                                        : worst->text);
}

std::vector<NodeId> GraphScene::nodesOf(const GraphNodeItem* item) const {
    if (!mLayout || item == nullptr) return {};
    const VisibleNode& node = mLayout->graph.nodes[static_cast<size_t>(item->index())];
    if (node.kind == VisibleKind::Operator) return {node.node};
    return node.members;
}

int GraphScene::visibleIndexOf(NodeId node) const {
    if (!mLayout || node < 0 || static_cast<size_t>(node) >= mLayout->graph.itemOfNode.size()) return -1;
    // Hidden nodes (Q/DQ, Constant) stand in front of the layer they feed: walk forward to a visible one.
    std::deque<NodeId> queue{node};
    std::vector<char> seen(mSnapshot.nodes.size(), 0);
    while (!queue.empty()) {
        const NodeId n = queue.front();
        queue.pop_front();
        const int index = mLayout->graph.itemOfNode[static_cast<size_t>(n)];
        if (index >= 0) return index;
        for (ValueId out : mSnapshot.nodes[static_cast<size_t>(n)].outputs) {
            if (out == kNoId) continue;
            for (NodeId consumer : mSnapshot.values[static_cast<size_t>(out)].consumers) {
                if (!seen[static_cast<size_t>(consumer)]) queue.push_back(consumer);
                seen[static_cast<size_t>(consumer)] = 1;
            }
        }
    }
    return -1;
}

GraphNodeItem* GraphScene::itemForNode(NodeId node) const {
    const int index = visibleIndexOf(node);
    return index < 0 ? nullptr : mItems[static_cast<size_t>(index)];
}

}  // namespace ql::ui
