// The graph view: one box per visible node (Q/DQ pairs hidden behind a "Q" badge unless shown), a newer layout
// supersedes an older one, search selects and centres, precision drives the outline, keyboard navigation,
// collapsed scopes on big graphs, and both layout paths attach edges to boxes without overlapping them.
#include <QSignalSpy>
#include <QWheelEvent>
#include <QtTest>
#include <unordered_map>

#include "tests/support/model_builder.h"
#include "tests/ui/graph/graph_test_models.h"
#include "ui/graph/graph_node_item.h"
#include "ui/graph/graph_view.h"
#include "ui/graph/node_style.h"
#include "ui/model_document.h"

using namespace ql;
using namespace ql::ui;

class GraphViewTest : public QObject {
    Q_OBJECT
private slots:
    void oneBoxPerVisibleNodeWithQdqHidden();
    void showingQdqAddsTheirBoxes();
    void newerLayoutRequestSupersedesOlder();
    void newerGraphSupersedesOlderInTheScene();
    void searchSelectsAndCentres();
    void ctrlWheelZoomsAnchoredAtTheCursor();
    void searchByTensorSelectsItsProducer();
    void precisionChangesTheOutline();
    void badgeIsShownOnTheNode();
    void badgeStaysVisibleZoomedOut();
    void arrowKeysWalkTheGraph();
    void precisionCycleRequestCarriesTheSelection();
    void bigScopedGraphCollapsesIntoBlocks();
    void badgesAndMarksSetTogetherShowOnTheirBlocks();
    void searchExpandsTheBlockHidingTheNode();
    void bigGraphUsesTheLayeredLayout();
    void dotLayoutAttachesEdgesToBoxes();
    void followsTheDocument();
    void constantsAreHiddenLikeInitializers();
};

namespace {

bool waitForLayout(GraphView& view, int timeoutMs = 60000) {
    return QTest::qWaitFor([&] { return view.graphScene()->layout() && !view.graphScene()->isLayoutPending(); },
                           timeoutMs);
}

// `view` at 600x400 showing `model`, laid out: a 60-node chain is taller than it and narrower.
bool showLaidOut(GraphView& view, const Model& model) {
    view.resize(600, 400);
    view.show();
    view.setGraph(model.graph());
    return waitForLayout(view);
}

int countOperators(const GraphScene& scene) {
    int count = 0;
    for (const GraphNodeItem* item : scene.nodeItems()) count += item->kind() == VisibleKind::Operator ? 1 : 0;
    return count;
}

GraphNodeItem* itemNamed(const GraphView& view, const std::string& name) {
    const auto node = view.graphScene()->snapshot().findNode(name);
    return node ? view.graphScene()->itemForNode(*node) : nullptr;
}

// Boxes must not overlap and every edge must start at its source box and end at its target box.
void verifyGeometry(const GraphLayout& layout) {
    const double tolerance = 2.5;
    for (size_t e = 0; e < layout.graph.edges.size(); ++e) {
        const EdgeRoute& route = layout.edgeRoutes[e];
        QVERIFY2(!route.points.empty(), "every edge is routed");
        const auto& from = layout.nodeRects[static_cast<size_t>(layout.graph.edges[e].from)];
        const auto& to = layout.nodeRects[static_cast<size_t>(layout.graph.edges[e].to)];
        const QRectF source =
            QRectF(from.x, from.y, from.width, from.height).adjusted(-tolerance, -tolerance, tolerance, tolerance);
        const QRectF target =
            QRectF(to.x, to.y, to.width, to.height).adjusted(-tolerance, -tolerance, tolerance, tolerance);
        const LayoutPoint start = route.points.front();
        const LayoutPoint end = route.hasArrowTip ? route.arrowTip : route.points.back();
        QVERIFY2(source.contains(start.x, start.y), "edge starts on its source box");
        QVERIFY2(target.contains(end.x, end.y), "edge ends on its target box");
    }
    std::vector<QRectF> boxes;
    for (const auto& r : layout.nodeRects) boxes.emplace_back(r.x, r.y, r.width, r.height);
    std::sort(boxes.begin(), boxes.end(), [](const QRectF& a, const QRectF& b) { return a.left() < b.left(); });
    for (size_t i = 0; i < boxes.size(); ++i) {
        for (size_t j = i + 1; j < boxes.size() && boxes[j].left() < boxes[i].right(); ++j)
            QVERIFY2(!boxes[i].adjusted(1, 1, -1, -1).intersects(boxes[j]), "boxes do not overlap");
    }
}

}  // namespace

void GraphViewTest::oneBoxPerVisibleNodeWithQdqHidden() {
    auto model = test::quantizedConvModel();
    QVERIFY(model);
    GraphView view;
    view.setGraph(model->graph());
    QVERIFY(waitForLayout(view));
    const GraphScene& scene = *view.graphScene();
    QCOMPARE(countOperators(scene), 2);             // Conv and Relu; the three Q/DQ nodes are hidden
    QCOMPARE(scene.nodeItems().size(), size_t{4});  // plus the input and the output
    QVERIFY(itemNamed(view, "conv")->quantized());
    QVERIFY(!itemNamed(view, "relu")->quantized());
    // The input connects straight to the Conv, through the hidden pair.
    const int conv = itemNamed(view, "conv")->index();
    QCOMPARE(scene.predecessors(conv).size(), size_t{1});
    QCOMPARE(scene.nodeItems()[static_cast<size_t>(scene.predecessors(conv)[0])]->kind(), VisibleKind::GraphInput);
    // A hidden Q/DQ node stands for the layer it feeds.
    QCOMPARE(itemNamed(view, "x_quantize"), itemNamed(view, "conv"));
}

void GraphViewTest::showingQdqAddsTheirBoxes() {
    auto model = test::quantizedConvModel();
    QVERIFY(model);
    GraphView view;
    view.setGraph(model->graph());
    QVERIFY(waitForLayout(view));
    itemNamed(view, "relu")->setSelected(true);
    view.setShowQdq(true);
    QVERIFY(waitForLayout(view));
    QCOMPARE(countOperators(*view.graphScene()), 5);
    QVERIFY2(itemNamed(view, "relu")->isSelected(), "the selection survives a re-layout");
    QVERIFY(!itemNamed(view, "conv")->quantized());
    QVERIFY(itemNamed(view, "x_quantize") != itemNamed(view, "conv"));
    view.setShowQdq(false);
    QVERIFY(waitForLayout(view));
    QCOMPARE(countOperators(*view.graphScene()), 2);
}

void GraphViewTest::newerLayoutRequestSupersedesOlder() {
    auto big = test::chainModel(400);
    auto small = test::chainModel(3);
    QVERIFY(big && small);
    GraphLayoutEngine engine;
    QSignalSpy finished(&engine, &GraphLayoutEngine::layoutFinished);
    const quint64 older = engine.requestLayout(buildVisibleGraph(GraphSnapshot::from(big->graph()), {}));
    const quint64 newer = engine.requestLayout(buildVisibleGraph(GraphSnapshot::from(small->graph()), {}));
    QVERIFY(newer > older);
    QVERIFY(QTest::qWaitFor([&] { return !engine.isBusy(); }, 60000));
    QTest::qWait(100);  // a stale result would arrive by now
    QCOMPARE(finished.count(), 1);
    QCOMPARE(finished[0][0].toULongLong(), newer);
    const auto layout = finished[0][1].value<std::shared_ptr<const GraphLayout>>();
    QCOMPARE(layout->graph.nodes.size(), size_t{5});  // input, 3 nodes, output
}

void GraphViewTest::newerGraphSupersedesOlderInTheScene() {
    auto first = test::chainModel(300);
    auto second = test::quantizedConvModel();
    QVERIFY(first && second);
    GraphView view;
    QSignalSpy applied(&view, &GraphView::layoutApplied);
    view.setGraph(first->graph());
    view.setGraph(second->graph());
    QVERIFY(waitForLayout(view));
    QTest::qWait(100);
    QCOMPARE(applied.count(), 1);
    QCOMPARE(view.graphScene()->nodeItems().size(), size_t{4});
}

// The scene point under the cursor stays under it while Ctrl+wheel zooms (the mouse need not have moved first).
void GraphViewTest::ctrlWheelZoomsAnchoredAtTheCursor() {
    auto model = test::chainModel(60);
    QVERIFY(model);
    GraphView view;
    QVERIFY(showLaidOut(view, *model));
    QVERIFY(view.findAndCenter(QStringLiteral("node_30")));
    for (const QPoint cursor : {QPoint(300, 80), QPoint(300, 330)}) {
        const QPointF before = view.mapToScene(cursor);
        QWheelEvent wheel(cursor, view.viewport()->mapToGlobal(cursor), QPoint(), QPoint(0, 240), Qt::NoButton,
                          Qt::ControlModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(view.viewport(), &wheel);
        const QPointF after = view.mapToScene(cursor);
        // The chain is narrower than the view: only y can scroll, so only y is held.
        QVERIFY2(std::abs(after.y() - before.y()) < 2.0,
                 qPrintable(QStringLiteral("%1 -> %2").arg(before.y()).arg(after.y())));
    }
}

void GraphViewTest::searchSelectsAndCentres() {
    auto model = test::chainModel(60);
    QVERIFY(model);
    GraphView view;
    QVERIFY(showLaidOut(view, *model));
    QSignalSpy selected(&view, &GraphView::nodeSelected);
    QVERIFY(view.findAndCenter(QStringLiteral("node_40")));
    GraphNodeItem* item = itemNamed(view, "node_40");
    QVERIFY(item->isSelected());
    QCOMPARE(view.graphScene()->selectedItems().size(), 1);
    QCOMPARE(selected.count(), 1);
    QCOMPARE(selected[0][0].value<NodeId>(), *view.graphScene()->snapshot().findNode("node_40"));
    // Centred vertically (the chain is narrower than the view, so x cannot scroll) and fully visible.
    const QPointF centre = view.mapToScene(view.viewport()->rect().center());
    QVERIFY2(std::abs(centre.y() - item->sceneBoundingRect().center().y()) < 3, "the node is at the centre");
    QVERIFY(view.mapToScene(view.viewport()->rect()).boundingRect().contains(item->sceneBoundingRect()));
    // Partial, case-insensitive match; and no match.
    QVERIFY(view.findAndCenter(QStringLiteral("NODE_5")));
    QVERIFY(itemNamed(view, "node_5")->isSelected());
    QVERIFY(!view.findAndCenter(QStringLiteral("no such node")));
}

void GraphViewTest::searchByTensorSelectsItsProducer() {
    auto model = test::chainModel(10);
    QVERIFY(model);
    GraphView view;
    view.setGraph(model->graph());
    QVERIFY(waitForLayout(view));
    QVERIFY(view.findAndCenter(QStringLiteral("t_4")));  // produced by node_3
    QVERIFY(itemNamed(view, "node_3")->isSelected());
    QCOMPARE(view.selectedNodes(), QList<NodeId>{*view.graphScene()->snapshot().findNode("node_3")});
}

void GraphViewTest::precisionChangesTheOutline() {
    auto model = test::quantizedConvModel();
    QVERIFY(model);
    GraphView view;
    view.setGraph(model->graph());
    QVERIFY(waitForLayout(view));
    GraphNodeItem* conv = itemNamed(view, "conv");
    const QColor before = conv->outlineColor();
    const NodeId id = *view.graphScene()->snapshot().findNode("conv");
    view.setNodePrecision(id, Precision::Int8);
    QCOMPARE(conv->outlineColor(), precisionColor(Precision::Int8));
    QVERIFY(conv->outlineColor() != before);
    view.setNodePrecision(id, Precision::Fp16);
    QCOMPARE(conv->outlineColor(), precisionColor(Precision::Fp16));
    // Drawn: the left border of the box has the outline colour.
    QImage image(200, 100, QImage::Format_ARGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    const QRectF box = conv->sceneBoundingRect().adjusted(8, 8, -8, -8);
    view.graphScene()->render(&painter, QRectF(0, 0, box.width(), box.height()), box, Qt::IgnoreAspectRatio);
    painter.end();
    const QColor border = image.pixelColor(0, static_cast<int>(box.height() / 2));
    QVERIFY2(std::abs(border.red() - precisionColor(Precision::Fp16).red()) < 40 &&
                 std::abs(border.green() - precisionColor(Precision::Fp16).green()) < 40,
             qPrintable(border.name()));
    // It survives a re-layout.
    view.setShowQdq(true);
    QVERIFY(waitForLayout(view));
    QCOMPARE(itemNamed(view, "conv")->outlineColor(), precisionColor(Precision::Fp16));
}

void GraphViewTest::badgeIsShownOnTheNode() {
    auto model = test::quantizedConvModel();
    QVERIFY(model);
    GraphView view;
    view.setGraph(model->graph());
    QVERIFY(waitForLayout(view));
    view.setNodeBadge(*view.graphScene()->snapshot().findNode("relu"), Severity::Warning,
                      QStringLiteral("slow <here>\nand why"));
    QCOMPARE(itemNamed(view, "relu")->badge(), std::optional<Severity>(Severity::Warning));
    // Escaped, its line break kept in the HTML tooltip.
    QVERIFY2(itemNamed(view, "relu")->toolTip().contains(QStringLiteral("slow &lt;here&gt;<br>and why")),
             qPrintable(itemNamed(view, "relu")->toolTip()));
    QVERIFY(!itemNamed(view, "conv")->badge());
    view.clearNodeBadges();
    QVERIFY(!itemNamed(view, "relu")->badge());
}

// Fit to Window on a big graph draws boxes without names or badges; the finding stays as a dot of fixed size.
void GraphViewTest::badgeStaysVisibleZoomedOut() {
    auto model = test::quantizedConvModel();
    QVERIFY(model);
    GraphView view;
    view.setGraph(model->graph());
    QVERIFY(waitForLayout(view));
    view.setNodeBadge(*view.graphScene()->snapshot().findNode("relu"), Severity::Error, QStringLiteral("no INT8"));
    const QRectF source = view.graphScene()->sceneRect().adjusted(-20, -20, 20, 20);
    const double lod = 0.2;
    QVERIFY(!GraphNodeItem::namesShownAt(lod));
    QImage image(static_cast<int>(source.width() * lod), static_cast<int>(source.height() * lod),
                 QImage::Format_ARGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    view.graphScene()->render(&painter, QRectF(image.rect()), source, Qt::IgnoreAspectRatio);
    painter.end();
    const auto colourAtCornerOf = [&](const char* name) {
        const GraphNodeItem* item = itemNamed(view, name);
        const QPointF corner = (item->mapToScene(item->boxRect().topRight()) - source.topLeft()) * lod;
        return image.pixelColor(corner.toPoint());
    };
    QCOMPARE(colourAtCornerOf("relu"), severityColor(Severity::Error));
    QVERIFY(colourAtCornerOf("conv") != severityColor(Severity::Error));
}

void GraphViewTest::arrowKeysWalkTheGraph() {
    auto model = test::quantizedConvModel();
    QVERIFY(model);
    GraphView view;
    view.show();
    view.setGraph(model->graph());
    QVERIFY(waitForLayout(view));
    view.selectNode(*view.graphScene()->snapshot().findNode("conv"));
    QTest::keyClick(&view, Qt::Key_Down);
    QVERIFY(itemNamed(view, "relu")->isSelected());
    QTest::keyClick(&view, Qt::Key_Up);
    QVERIFY(itemNamed(view, "conv")->isSelected());
    QTest::keyClick(&view, Qt::Key_Up);
    QCOMPARE(qgraphicsitem_cast<GraphNodeItem*>(view.graphScene()->selectedItems().value(0))->kind(),
             VisibleKind::GraphInput);
}

void GraphViewTest::precisionCycleRequestCarriesTheSelection() {
    auto model = test::quantizedConvModel();
    QVERIFY(model);
    GraphView view;
    view.setGraph(model->graph());
    QVERIFY(waitForLayout(view));
    QSignalSpy requested(&view, &GraphView::precisionCycleRequested);
    itemNamed(view, "conv")->setSelected(true);
    itemNamed(view, "relu")->setSelected(true);
    view.requestPrecisionCycle();
    QCOMPARE(requested.count(), 1);
    auto nodes = requested[0][0].value<QList<NodeId>>();
    std::sort(nodes.begin(), nodes.end());
    QCOMPARE(nodes, (QList<NodeId>{*view.graphScene()->snapshot().findNode("conv"),
                                   *view.graphScene()->snapshot().findNode("relu")}));
}

void GraphViewTest::bigScopedGraphCollapsesIntoBlocks() {
    auto model = test::scopedModel(5000);
    QVERIFY(model);
    GraphView view;
    view.setGraph(model->graph());
    QVERIFY(waitForLayout(view));
    const GraphLayout& layout = *view.graphScene()->layout();
    QVERIFY(layout.graph.collapseDepth > 0);
    QCOMPARE(layout.graph.operatorCount, size_t{5000});
    QVERIFY(layout.graph.nodes.size() <= 802);  // the budget, plus input and output
    size_t inBlocks = 0;
    for (const VisibleNode& node : layout.graph.nodes) inBlocks += node.members.size();
    QVERIFY(inBlocks > 4000);
    verifyGeometry(layout);
}

// A lint of a big graph badges thousands of nodes and a prediction marks every node: set together, each block shows
// its worst finding and its weightiest mark, as when set one by one.
void GraphViewTest::badgesAndMarksSetTogetherShowOnTheirBlocks() {
    auto model = test::scopedModel(5000);
    QVERIFY(model);
    GraphView view;
    view.setGraph(model->graph());
    QVERIFY(waitForLayout(view));
    const GraphScene& scene = *view.graphScene();
    const NodeId worst = 1234;
    const GraphNodeItem* block = scene.itemForNode(worst);
    QVERIFY(block && block->kind() == VisibleKind::Block);
    std::vector<GraphScene::NodeBadge> badges;
    std::unordered_map<NodeId, GraphScene::EngineMark> marks;
    for (NodeId node : scene.nodesOf(block)) {
        badges.push_back({node, node == worst ? Severity::Error : Severity::Warning, QStringLiteral("finding")});
        marks[node] = {QColor(node == worst ? Qt::red : Qt::gray), node == worst ? 2.0 : 1.0, {}, false};
    }
    badges.push_back({worst, Severity::Info, QStringLiteral("a second finding: the first one is shown")});
    view.setNodeBadges(badges);
    view.setNodeEngineMarks(std::move(marks));
    QCOMPARE(block->badge(), std::optional<Severity>(Severity::Error));
    QVERIFY2(block->toolTip().contains(QStringLiteral("%1 findings inside").arg(scene.nodesOf(block).size())),
             qPrintable(block->toolTip()));
    QCOMPARE(scene.nodeBadgeText(worst), QStringLiteral("finding"));
    QCOMPARE(block->fill(), QColor(Qt::red));
    // Another block has neither.
    const auto other = std::find_if(scene.nodeItems().begin(), scene.nodeItems().end(), [&](const GraphNodeItem* i) {
        return i->kind() == VisibleKind::Block && i != block;
    });
    QVERIFY(other != scene.nodeItems().end());
    QVERIFY(!(*other)->badge());
    QVERIFY((*other)->fill() != QColor(Qt::red));
}

void GraphViewTest::searchExpandsTheBlockHidingTheNode() {
    auto model = test::scopedModel(5000);
    QVERIFY(model);
    GraphView view;
    view.setGraph(model->graph());
    QVERIFY(waitForLayout(view));
    const size_t before = view.graphScene()->nodeItems().size();
    QVERIFY(itemNamed(view, "/stage2/block3/unit4/Relu_2170"));
    QCOMPARE(itemNamed(view, "/stage2/block3/unit4/Relu_2170")->kind(), VisibleKind::Block);
    QVERIFY(view.findAndCenter(QStringLiteral("/stage2/block3/unit4/Relu_2170")));
    QVERIFY(waitForLayout(view));
    GraphNodeItem* item = itemNamed(view, "/stage2/block3/unit4/Relu_2170");
    QCOMPARE(item->kind(), VisibleKind::Operator);
    QVERIFY(item->isSelected());
    QVERIFY(view.graphScene()->nodeItems().size() > before);
}

void GraphViewTest::bigGraphUsesTheLayeredLayout() {
    auto model = test::scopedModel(5000);
    QVERIFY(model);
    GraphView view;
    view.graphScene()->setCollapseThresholds(100000, 100000);  // nothing collapses: 5,000 boxes
    view.setGraph(model->graph());
    QVERIFY(waitForLayout(view));
    const GraphLayout& layout = *view.graphScene()->layout();
    QCOMPARE(layout.graph.collapseDepth, 0);
    QCOMPARE(layout.graph.nodes.size(), size_t{5002});
    QCOMPARE(layout.algorithm, LayoutAlgorithm::Layered);
    verifyGeometry(layout);
}

void GraphViewTest::dotLayoutAttachesEdgesToBoxes() {
    auto model = test::scopedModel(300);
    QVERIFY(model);
    GraphView view;
    view.setGraph(model->graph());
    QVERIFY(waitForLayout(view));
    const GraphLayout& layout = *view.graphScene()->layout();
    QCOMPARE(layout.algorithm, LayoutAlgorithm::Dot);
    QCOMPARE(layout.graph.nodes.size(), size_t{302});
    verifyGeometry(layout);
}

void GraphViewTest::followsTheDocument() {
    ModelDocument document;
    GraphView view;
    view.setDocument(&document);
    QVERIFY(!view.graphScene()->hasGraph());
    document.replaceModel(std::shared_ptr<Model>(test::quantizedConvModel()));
    QVERIFY(waitForLayout(view));
    QCOMPARE(view.graphScene()->nodeItems().size(), size_t{4});
    document.replaceModel(nullptr);
    QVERIFY(!view.graphScene()->hasGraph());
    QVERIFY(view.graphScene()->items().isEmpty());
}

void GraphViewTest::constantsAreHiddenLikeInitializers() {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {2, 8});
    b.node("Constant", {}, {"shape"}, "shape_constant")
        .tensor("value", test::makeTensor("shape", DataType::Int64, {2}, {1, 16}));
    b.node("Reshape", {"x", "shape"}, {"y"}, "reshape");
    b.output("y");
    auto model = b.load();
    QVERIFY(model);
    GraphView view;
    view.setGraph(model->graph());
    QVERIFY(waitForLayout(view));
    QCOMPARE(countOperators(*view.graphScene()), 1);
    QCOMPARE(view.graphScene()->predecessors(itemNamed(view, "reshape")->index()).size(), size_t{1});  // only x
    view.graphScene()->setShowConstants(true);
    QVERIFY(waitForLayout(view));
    QCOMPARE(countOperators(*view.graphScene()), 2);
    QCOMPARE(view.graphScene()->predecessors(itemNamed(view, "reshape")->index()).size(), size_t{2});
}

QTEST_MAIN(GraphViewTest)
#include "graph_view_test.moc"
