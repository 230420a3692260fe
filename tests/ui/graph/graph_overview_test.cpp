// The graph view's overview (issue 29): the minimap's rectangle follows pans and zooms, a click on it centres the
// view there and it follows a body being entered; Fit to Window shows a readable structure: a long chain wraps into
// columns that fit whole at a readable zoom, a scoped graph collapses to the deepest scope level that fits, and both
// are undone (Fit As Laid Out, Expand All).
#include <QScrollBar>
#include <QSignalSpy>
#include <QtTest>

#include "tests/support/control_flow_model.h"
#include "tests/support/model_zoo.h"
#include "tests/ui/graph/graph_test_models.h"
#include "ui/graph/graph_fit.h"
#include "ui/graph/graph_minimap.h"
#include "ui/graph/graph_node_item.h"
#include "ui/graph/graph_view.h"
#include "ui/theme.h"

using namespace ql;
using namespace ql::ui;

class GraphOverviewTest : public QObject {
    Q_OBJECT
private slots:
    void minimapRectangleFollowsPanAndZoom();
    void clickOnTheMinimapCentresTheView();
    void minimapFollowsTheBodyEntered();
    void minimapCollapsesToAButton();
    void fitWrapsALongChainIntoReadableColumns();
    void fitCollapsesAScopedGraphToTheDeepestLevelThatFits();
    void wrappedColumnsJoinEveryEdgeToItsBoxes();
    void aWeightsIdentityIsDataNotABox();
    void minimapFollowsTheTheme();
};

namespace {

bool waitForLayout(const GraphScene* scene) {
    return QTest::qWaitFor([&] { return scene->layout() && !scene->isLayoutPending(); }, 60000);
}

bool showLaidOut(GraphView& view, const Model& model, QSize size) {
    view.resize(size);
    view.show();
    view.setGraph(model.graph());
    return waitForLayout(view.graphScene());
}

bool fitAndWait(GraphView& view) {
    view.fitToWindow();
    return QTest::qWaitFor([&] { return !view.fit()->isFitting(); }, 60000) && waitForLayout(view.shownScene());
}

// The viewport's rectangle on the minimap, computed afresh from the view.
QRectF expectedRectangle(const GraphView& view) {
    const QRectF shown = view.mapToScene(view.viewport()->rect()).boundingRect();
    return QRectF(view.minimap()->mapFromScene(shown.topLeft()), view.minimap()->mapFromScene(shown.bottomRight()));
}

bool near(QPointF a, QPointF b, double tolerance) {
    return std::abs(a.x() - b.x()) <= tolerance && std::abs(a.y() - b.y()) <= tolerance;
}

QString describe(const QRectF& r) {
    return QStringLiteral("(%1,%2 %3x%4)").arg(r.x()).arg(r.y()).arg(r.width()).arg(r.height());
}

// Every box is inside the viewport.
bool allBoxesVisible(const GraphView& view) {
    const QRectF shown = view.mapToScene(view.viewport()->rect()).boundingRect().adjusted(-1, -1, 1, 1);
    for (const GraphNodeItem* item : view.shownScene()->nodeItems()) {
        const QRectF box = item->mapToScene(item->boxRect()).boundingRect();
        if (!shown.contains(box)) return false;
    }
    return true;
}

}  // namespace

void GraphOverviewTest::minimapRectangleFollowsPanAndZoom() {
    auto model = test::chainModel(120);
    GraphView view;
    QVERIFY(showLaidOut(view, *model, QSize(700, 500)));
    GraphMinimap& minimap = *view.minimap();
    QVERIFY(minimap.isVisible() && minimap.isExpanded());
    minimap.renderIfChanged();
    QVERIFY(!minimap.picture().isNull());
    const QRectF before = minimap.viewportRect();
    QVERIFY2(minimap.pictureRect().contains(before.center()), qPrintable(describe(before)));

    view.verticalScrollBar()->setValue(view.verticalScrollBar()->value() + 600);  // pan down
    QCoreApplication::processEvents();
    const QRectF panned = minimap.viewportRect();
    QVERIFY2(panned.center().y() > before.center().y() + 1, qPrintable(describe(before) + describe(panned)));
    QVERIFY(near(panned.center(), expectedRectangle(view).center(), 0.5));

    view.zoomOut();  // the rectangle grows by the zoom step, about its centre
    QCoreApplication::processEvents();
    const QRectF zoomed = minimap.viewportRect();
    QVERIFY2(std::abs(zoomed.height() / panned.height() - 1.25) < 0.05, qPrintable(describe(zoomed)));
    QVERIFY(near(zoomed.topLeft(), expectedRectangle(view).topLeft(), 0.5));

    // The rectangle painted is the one computed: its outline (antialiased) crosses the rows at its top.
    const QImage shot = minimap.grab().toImage();
    const QColor highlight = minimap.palette().color(QPalette::Highlight);
    int closest = 3 * 255;
    for (int dy = -1; dy <= 1; ++dy) {
        const QColor pixel = shot.pixelColor(qRound(zoomed.center().x()), static_cast<int>(zoomed.top()) + dy);
        closest =
            std::min(closest, std::abs(pixel.red() - highlight.red()) + std::abs(pixel.green() - highlight.green()) +
                                  std::abs(pixel.blue() - highlight.blue()));
    }
    QVERIFY2(closest < 60, qPrintable(QString::number(closest)));
}

void GraphOverviewTest::clickOnTheMinimapCentresTheView() {
    auto model = test::chainModel(200);
    GraphView view;
    QVERIFY(showLaidOut(view, *model, QSize(700, 500)));
    GraphMinimap& minimap = *view.minimap();
    minimap.renderIfChanged();
    const QRectF picture = minimap.pictureRect();
    // Two thirds down the chain, away from the rectangle at its top.
    const QPoint click(qRound(picture.center().x()), qRound(picture.top() + picture.height() * 2 / 3));
    const QPointF target = minimap.mapToScene(click);
    QVERIFY(!minimap.viewportRect().contains(click));
    QTest::mouseClick(&minimap, Qt::LeftButton, {}, click);
    const QPointF centre = view.mapToScene(view.viewport()->rect().center());
    // The chain is narrower than the view: only y scrolls. A pixel of the minimap is many scene units.
    const double unitsPerPixel = view.graphScene()->sceneRect().height() / picture.height();
    QVERIFY2(std::abs(centre.y() - target.y()) <= unitsPerPixel,
             qPrintable(QStringLiteral("%1 vs %2").arg(centre.y()).arg(target.y())));
    QVERIFY(minimap.viewportRect().contains(click));
}

void GraphOverviewTest::minimapFollowsTheBodyEntered() {
    auto model = test::nestedControlFlowModel();
    GraphView view;
    QVERIFY(showLaidOut(view, *model, QSize(700, 500)));
    GraphMinimap& minimap = *view.minimap();
    minimap.renderIfChanged();
    const QImage mainPicture = minimap.picture();
    QVERIFY(view.openSubgraph(*view.graphScene()->snapshot().findNode("branch"), QStringLiteral("then_branch")));
    QVERIFY(waitForLayout(view.shownScene()));
    minimap.renderIfChanged();
    QVERIFY(minimap.picture() != mainPicture);
    QVERIFY(near(minimap.mapToScene(minimap.pictureRect().bottomRight()), view.shownScene()->sceneRect().bottomRight(),
                 0.5));
    view.closeSubgraphs(0);
    minimap.renderIfChanged();
    QCOMPARE(minimap.picture(), mainPicture);
}

void GraphOverviewTest::minimapCollapsesToAButton() {
    auto model = test::chainModel(10);
    GraphView view;
    QVERIFY(showLaidOut(view, *model, QSize(700, 500)));
    GraphMinimap& minimap = *view.minimap();
    const int strip = view.height() - view.viewport()->height();
    minimap.showAction()->setChecked(false);
    QVERIFY(!minimap.isExpanded());
    QVERIFY(minimap.height() < 40);
    QVERIFY2(view.height() - view.viewport()->height() < strip, "the viewport takes the room back");
    // The viewport never runs under the minimap.
    minimap.setExpanded(true);
    QVERIFY(minimap.showAction()->isChecked());
    const QRect viewport(view.viewport()->mapTo(&view, QPoint(0, 0)), view.viewport()->size());
    QVERIFY(!viewport.intersects(minimap.geometry()));
}

// A 600-node chain, one box wide, fitted as laid out is a sliver; fitted readably it wraps into columns that show
// whole at a zoom where boxes show their op type.
void GraphOverviewTest::fitWrapsALongChainIntoReadableColumns() {
    auto model = test::chainModel(600);
    GraphView view;
    QVERIFY(showLaidOut(view, *model, QSize(1000, 700)));
    QVERIFY(fitAndWait(view));
    const GraphLayout& layout = *view.graphScene()->layout();
    QVERIFY2(layout.columns > 1, qPrintable(QString::number(layout.columns)));
    QCOMPARE(layout.graph.nodes.size(), size_t{602});  // nothing collapsed: the chain has no scopes
    QVERIFY2(view.zoomFactor() >= GraphFit::kReadableZoom, qPrintable(QString::number(view.zoomFactor())));
    QVERIFY(allBoxesVisible(view));

    view.fit()->fitAsLaidOut();
    QVERIFY(QTest::qWaitFor([&] { return !view.fit()->isFitting(); }, 60000));
    QCOMPARE(view.graphScene()->layout()->columns, 1);
    QVERIFY(view.zoomFactor() < GraphFit::kReadableZoom);
}

// The test scoped model: "/stage0" holds all 672 operators, 14 "/stage0/blockB" blocks of 50, 135 units of 5. The
// operators do not fit at a readable zoom even wrapped; the units do.
void GraphOverviewTest::fitCollapsesAScopedGraphToTheDeepestLevelThatFits() {
    auto model = test::scopedModel(672);
    GraphView view;
    QVERIFY(showLaidOut(view, *model, QSize(1000, 700)));
    QCOMPARE(view.graphScene()->layout()->graph.nodes.size(), size_t{674});
    QVERIFY(fitAndWait(view));
    const GraphLayout& layout = *view.graphScene()->layout();
    size_t blocks = 0;
    for (const VisibleNode& node : layout.graph.nodes) {
        if (node.kind != VisibleKind::Block) continue;
        ++blocks;
        QCOMPARE(scopeLevel(node.scope), 3);
    }
    QCOMPARE(blocks, size_t{135});
    QVERIFY2(view.zoomFactor() >= GraphFit::kReadableZoom, qPrintable(QString::number(view.zoomFactor())));
    QVERIFY(allBoxesVisible(view));
    // Side by side at this zoom, each block's label is the last part of its scope ("unit12"), inside its own box:
    // the whole path, wider than the box, covered the neighbours' labels (walk, 10k nodes in scopes).
    QVERIFY(!GraphNodeItem::namesShownAt(view.zoomFactor()));
    for (const GraphNodeItem* item : view.shownScene()->nodeItems()) {
        if (item->kind() != VisibleKind::Block) continue;
        const QString scope = QString::fromStdString(layout.graph.nodes[static_cast<size_t>(item->index())].title);
        QVERIFY2(item->boxRect().contains(item->overviewRect()), qPrintable(scope + describe(item->overviewRect())));
        QVERIFY2(item->overviewTitle() == scope.section(QLatin1Char('/'), -1) ||
                     item->overviewTitle().contains(QChar(0x2026)),
                 qPrintable(scope + " shows " + item->overviewTitle()));
        QVERIFY2(item->overviewTitle().startsWith(QStringLiteral("unit")), qPrintable(item->overviewTitle()));
    }
    // Undone by expanding.
    view.graphScene()->expandAll();
    QVERIFY(waitForLayout(view.graphScene()));
    QCOMPARE(view.graphScene()->layout()->graph.nodes.size(), size_t{674});
}

// Boxes in columns do not overlap, and each edge, within a column or from one to the next, starts on its source box
// and ends on its target box.
void GraphOverviewTest::wrappedColumnsJoinEveryEdgeToItsBoxes() {
    auto model = test::scopedModel(900);
    LayoutOptions options;
    options.dotLimit = 0;
    options.wrapWidth = 3000;
    options.wrapHeight = 2000;
    VisibilityOptions visibility;
    visibility.collapseAbove = 100000;
    VisibleGraph graph = buildVisibleGraph(GraphSnapshot::from(model->graph()), visibility);
    for (VisibleNode& node : graph.nodes) {  // as NodeMetrics sizes them: wider for longer names
        node.width = 60 + 2.0 * static_cast<double>(node.subtitle.size() % 40);
        node.height = 38;
    }
    const GraphLayout layout = layoutGraph(std::move(graph), options);
    QVERIFY2(layout.columns > 2, qPrintable(QString::number(layout.columns)));
    const double tolerance = 2.5;
    auto grown = [&](const LayoutRect& r) {
        return QRectF(r.x, r.y, r.width, r.height).adjusted(-tolerance, -tolerance, tolerance, tolerance);
    };
    for (size_t e = 0; e < layout.graph.edges.size(); ++e) {
        const EdgeRoute& route = layout.edgeRoutes[e];
        QVERIFY(!route.points.empty());
        QVERIFY(grown(layout.nodeRects[static_cast<size_t>(layout.graph.edges[e].from)])
                    .contains(route.points.front().x, route.points.front().y));
        QVERIFY(grown(layout.nodeRects[static_cast<size_t>(layout.graph.edges[e].to)])
                    .contains(route.arrowTip.x, route.arrowTip.y));
    }
    std::vector<QRectF> boxes;
    for (const LayoutRect& r : layout.nodeRects) {
        boxes.emplace_back(r.x, r.y, r.width, r.height);
        QVERIFY2(QRectF(0, 0, layout.width, layout.height).adjusted(-0.01, -0.01, 0.01, 0.01).contains(boxes.back()),
                 qPrintable(describe(boxes.back()) + describe(QRectF(0, 0, layout.width, layout.height))));
    }
    std::sort(boxes.begin(), boxes.end(), [](const QRectF& a, const QRectF& b) { return a.left() < b.left(); });
    for (size_t i = 0; i < boxes.size(); ++i) {
        for (size_t j = i + 1; j < boxes.size() && boxes[j].left() < boxes[i].right(); ++j)
            QVERIFY(!boxes[i].adjusted(1, 1, -1, -1).intersects(boxes[j]));
    }
}

// PyTorch writes an Identity per shared weight before the first layer (DenseNet-121: 120): sources all of them, they
// made Fit to Window one row of boxes above a single scope block. Computed from a constant, each is data the export
// folds into an initializer: hidden with the Constants, and no edge comes from it.
void GraphOverviewTest::aWeightsIdentityIsDataNotABox() {
    const auto model = test::sharedWeightModel("/m/fc/MatMul");
    const VisibleGraph shown = buildVisibleGraph(GraphSnapshot::from(model->graph()), {});
    QCOMPARE(shown.itemOfNode[static_cast<size_t>(*model->graph().findNode("Identity_0"))], -1);
    QVERIFY(shown.itemOfNode[static_cast<size_t>(*model->graph().findNode("/m/fc/MatMul"))] >= 0);
    QCOMPARE(shown.edges.size(), size_t{3});  // x -> MatMul -> Relu -> p
    VisibilityOptions withConstants;
    withConstants.showConstants = true;
    const VisibleGraph all = buildVisibleGraph(GraphSnapshot::from(model->graph()), withConstants);
    QVERIFY(all.itemOfNode[static_cast<size_t>(*model->graph().findNode("Identity_0"))] >= 0);
}

// The minimap's picture is drawn in the palette's base colour: switching to the dark theme left it white.
void GraphOverviewTest::minimapFollowsTheTheme() {
    auto model = test::chainModel(50);
    GraphView view;
    QVERIFY(showLaidOut(view, *model, QSize(700, 500)));
    GraphMinimap& minimap = *view.minimap();
    minimap.renderIfChanged();
    const QColor light = minimap.picture().pixelColor(1, 1);
    ui::applyTheme(ui::Theme::Dark);
    QApplication::processEvents();
    minimap.renderIfChanged();
    const QColor dark = minimap.picture().pixelColor(1, 1);
    ui::applyTheme(ui::Theme::Light);
    QApplication::processEvents();
    QVERIFY2(dark.lightness() < light.lightness() - 100,
             qPrintable(QStringLiteral("%1 -> %2").arg(light.name(), dark.name())));
}

QTEST_MAIN(GraphOverviewTest)
#include "graph_overview_test.moc"
