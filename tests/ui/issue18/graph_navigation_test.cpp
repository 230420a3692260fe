// Issue 18, item 5 (graph navigation): op types read at Fit to Window, the legend keeps its own strip, the wheel
// scrolls and Ctrl+wheel zooms (and the saved setting swaps them), search steps through its matches with a count,
// any scope level collapses (not a one-op scope) and all at once, and edges show their tensor's shape.
#include <QImage>
#include <QLineEdit>
#include <QMenu>
#include <QPainter>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QtTest>

#include "tests/support/model_builder.h"
#include "tests/ui/graph/graph_test_models.h"
#include "ui/graph/graph_edge_item.h"
#include "ui/graph/graph_fit.h"
#include "ui/graph/graph_node_item.h"
#include "ui/graph/graph_search_bar.h"
#include "ui/graph/graph_view.h"
#include "ui/graph/graph_view_actions.h"
#include "ui/main_window.h"
#include "ui/model_document.h"

using namespace ql;
using namespace ql::ui;

class GraphNavigationTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void fitToWindowShowsOpTypesOnTheSample();
    void legendHasItsOwnStrip();
    void wheelScrollsAndControlWheelZooms();
    void wheelConventionIsASavedSetting();
    void searchStepsThroughMatchesWithACount();
    void anyScopeLevelCollapsesButNotOneOpScopes();
    void collapseAllAndExpandAll();
    void edgesShowTensorShapes();
    void denseShapeLabelsDoNotCoverEachOther();
};

namespace {

bool waitForLayout(GraphView& view) {
    return QTest::qWaitFor([&] { return view.graphScene()->layout() && !view.graphScene()->isLayoutPending(); }, 60000);
}

GraphNodeItem* itemNamed(const GraphView& view, const std::string& name) {
    const auto node = view.graphScene()->snapshot().findNode(name);
    return node ? view.graphScene()->itemForNode(*node) : nullptr;
}

// Pixels of the box on screen that are (nearly) white: the label's text, on the mid-dark fills.
int textPixels(const QImage& image, const QRect& box) {
    int count = 0;
    for (int y = box.top() + 2; y < box.bottom() - 1; ++y) {
        for (int x = box.left() + 2; x < box.right() - 1; ++x) {
            const QColor c = image.pixelColor(x, y);
            count += c.red() > 200 && c.green() > 200 && c.blue() > 200 ? 1 : 0;
        }
    }
    return count;
}

void sendWheel(GraphView& view, Qt::KeyboardModifiers modifiers) {
    const QPointF at = view.viewport()->rect().center();
    QWheelEvent wheel(at, view.viewport()->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton, modifiers,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(view.viewport(), &wheel);
}

QAction* actionNamed(const QMenu& menu, const QString& name) {
    for (QAction* action : menu.actions()) {
        if (action->objectName() == name) return action;
    }
    return nullptr;
}

}  // namespace

void GraphNavigationTest::initTestCase() {
    QCoreApplication::setOrganizationName(QStringLiteral("QuantLensTests"));
    QCoreApplication::setApplicationName(QStringLiteral("graph_navigation_test"));
    QSettings().clear();
}

void GraphNavigationTest::fitToWindowShowsOpTypesOnTheSample() {
    MainWindow window;
    window.show();
    QSignalSpy opened(&window, &MainWindow::modelOpened);
    window.openModel(QStringLiteral(QL_SOURCE_DIR "/resources/samples/digits_cnn.onnx"));
    QVERIFY(QTest::qWaitFor([&] { return opened.count() == 1; }, 10000));
    auto* view = window.findChild<GraphView*>();
    QVERIFY(waitForLayout(*view));
    view->fitToWindow();
    const double zoom = view->zoomFactor();
    const QImage image = view->viewport()->grab().toImage();
    if (qEnvironmentVariableIsSet("QL_SHOTS")) window.grab().save(qEnvironmentVariable("QL_SHOTS") + "/fit.png");
    for (GraphNodeItem* item : view->graphScene()->nodeItems()) {
        if (item->kind() != VisibleKind::Operator) continue;
        QVERIFY2(item->titleShownAt(zoom), qPrintable(QStringLiteral("zoom %1").arg(zoom)));
        QVERIFY2(item->titlePixelsAt(zoom) >= GraphNodeItem::kMinLabelPixels, "readable at Fit to Window");
        const QRect box = view->mapFromScene(item->mapRectToScene(item->boxRect())).boundingRect();
        QVERIFY2(textPixels(image, box & image.rect()) > 10, "the op type is drawn");
    }
    // Names only when zoomed in.
    QVERIFY(!GraphNodeItem::namesShownAt(GraphNodeItem::kNameLevelOfDetail / 2));
    QVERIFY(GraphNodeItem::namesShownAt(1.0));
}

void GraphNavigationTest::legendHasItsOwnStrip() {
    auto model = test::chainModel(40);
    GraphView view;
    view.resize(600, 400);
    view.show();
    view.setGraph(model->graph());
    QVERIFY(waitForLayout(view));
    view.setLegendVisible(true);
    QVERIFY(view.legend()->isVisible());
    QVERIFY(!view.viewport()->geometry().intersects(view.legend()->geometry()));
    view.fitToWindow();  // a chain taller than the view wraps into columns in the background
    QVERIFY(QTest::qWaitFor([&] { return !view.fit()->isFitting(); }, 60000));
    const QRectF shown = view.mapToScene(view.viewport()->rect()).boundingRect();
    for (GraphNodeItem* item : view.graphScene()->nodeItems()) QVERIFY(shown.contains(item->sceneBoundingRect()));
}

void GraphNavigationTest::wheelScrollsAndControlWheelZooms() {
    auto model = test::chainModel(60);
    GraphView view;
    view.resize(600, 400);
    view.show();
    view.setGraph(model->graph());
    QVERIFY(waitForLayout(view));
    view.setTransform(QTransform());
    view.verticalScrollBar()->setValue(view.verticalScrollBar()->minimum());
    const int top = view.verticalScrollBar()->value();
    sendWheel(view, Qt::NoModifier);
    QCOMPARE(view.zoomFactor(), 1.0);
    QVERIFY2(view.verticalScrollBar()->value() > top, "the wheel scrolls down");
    sendWheel(view, Qt::ControlModifier);
    QVERIFY2(view.zoomFactor() < 1.0, "Ctrl+wheel zooms out");
    // The other convention.
    view.setWheelZooms(true);
    const double zoom = view.zoomFactor();
    sendWheel(view, Qt::NoModifier);
    QVERIFY(view.zoomFactor() < zoom);
    const double zoomed = view.zoomFactor();
    sendWheel(view, Qt::ControlModifier);
    QCOMPARE(view.zoomFactor(), zoomed);
}

void GraphNavigationTest::wheelConventionIsASavedSetting() {
    {
        GraphView view;
        GraphSearchBar search(&view);
        QMenu menu;
        addGraphViewActions(&menu, &view, &search);
        QAction* wheelZooms = actionNamed(menu, QStringLiteral("WheelZoomsAction"));
        QVERIFY(wheelZooms && wheelZooms->isCheckable() && !wheelZooms->isChecked());
        QVERIFY(!view.wheelZooms());
        wheelZooms->trigger();
        QVERIFY(view.wheelZooms());
        QCOMPARE(QSettings().value(kWheelZoomsSetting).toBool(), true);
    }
    GraphView view;
    GraphSearchBar search(&view);
    QMenu menu;
    addGraphViewActions(&menu, &view, &search);
    QVERIFY2(view.wheelZooms(), "the next window reads the setting");
    QVERIFY(actionNamed(menu, QStringLiteral("WheelZoomsAction"))->isChecked());
    actionNamed(menu, QStringLiteral("WheelZoomsAction"))->trigger();
    QCOMPARE(QSettings().value(kWheelZoomsSetting).toBool(), false);
}

void GraphNavigationTest::searchStepsThroughMatchesWithACount() {
    auto model = test::chainModel(12);
    GraphView view;
    GraphSearchBar search(&view);
    QMenu menu;
    addGraphViewActions(&menu, &view, &search);
    view.setGraph(model->graph());
    QVERIFY(waitForLayout(view));
    QLineEdit* edit = search.lineEdit();
    QTest::keyClicks(edit, QStringLiteral("node_1"));  // node_1, node_10, node_11
    QTest::keyClick(edit, Qt::Key_Return);
    QCOMPARE(search.countText(), QStringLiteral("1 of 3"));
    QVERIFY(itemNamed(view, "node_1")->isSelected());
    QTest::keyClick(edit, Qt::Key_Return);
    QCOMPARE(search.countText(), QStringLiteral("2 of 3"));
    QVERIFY(itemNamed(view, "node_10")->isSelected());
    QTest::keyClick(edit, Qt::Key_Return, Qt::ShiftModifier);
    QCOMPARE(search.countText(), QStringLiteral("1 of 3"));
    QTest::keyClick(edit, Qt::Key_Return, Qt::ShiftModifier);  // wraps around
    QCOMPARE(search.countText(), QStringLiteral("3 of 3"));
    QVERIFY(itemNamed(view, "node_11")->isSelected());
    search.findNextAction()->trigger();  // F3
    QCOMPARE(search.findNextAction()->shortcut(), QKeySequence(QKeySequence::FindNext));
    QCOMPARE(search.countText(), QStringLiteral("1 of 3"));
    QVERIFY(menu.actions().contains(search.findPreviousAction()));
    // An op type matches too; no match says so.
    edit->setText(QStringLiteral("relu"));
    QTest::keyClick(edit, Qt::Key_Return);
    QCOMPARE(search.countText(), QStringLiteral("1 of 12"));
    edit->setText(QStringLiteral("no such node"));
    QTest::keyClick(edit, Qt::Key_Return);
    QCOMPARE(search.countText(), QStringLiteral("No matches"));
}

void GraphNavigationTest::anyScopeLevelCollapsesButNotOneOpScopes() {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {1, 8});
    b.node("Relu", {"x"}, {"a"}, "/single/Relu");
    b.node("Relu", {"a"}, {"b"}, "/outer/inner/Relu");
    b.node("Relu", {"b"}, {"c"}, "/outer/inner/Relu_1");
    b.node("Relu", {"c"}, {"d"}, "/outer/lonely/Relu");
    b.output("d");
    auto model = b.load();
    QVERIFY(model);
    GraphView view;
    view.setGraph(model->graph());
    QVERIFY(waitForLayout(view));
    GraphScene& scene = *view.graphScene();
    QVERIFY2(scene.collapsibleScopes(itemNamed(view, "/single/Relu")).empty(), "a one-op scope is not collapsible");
    QCOMPARE(scene.collapsibleScopes(itemNamed(view, "/outer/lonely/Relu")), std::vector<std::string>{"/outer"});
    QCOMPARE(scene.collapsibleScopes(itemNamed(view, "/outer/inner/Relu")),
             (std::vector<std::string>{"/outer", "/outer/inner"}));
    scene.collapseScope("/single");  // nothing to do
    QCOMPARE(itemNamed(view, "/single/Relu")->kind(), VisibleKind::Operator);
    // The inner level, then the outer one.
    scene.collapseScope("/outer/inner");
    QVERIFY(waitForLayout(view));
    GraphNodeItem* inner = itemNamed(view, "/outer/inner/Relu");
    QCOMPARE(inner->kind(), VisibleKind::Block);
    QCOMPARE(itemNamed(view, "/outer/lonely/Relu")->kind(), VisibleKind::Operator);
    QCOMPARE(scene.collapsibleScopes(inner), std::vector<std::string>{"/outer"});
    scene.collapseScope("/outer");
    QVERIFY(waitForLayout(view));
    QCOMPARE(itemNamed(view, "/outer/inner/Relu"), itemNamed(view, "/outer/lonely/Relu"));
    QCOMPARE(scene.nodesOf(itemNamed(view, "/outer/lonely/Relu")).size(), size_t{3});
}

void GraphNavigationTest::collapseAllAndExpandAll() {
    auto model = test::scopedModel(300);  // /stage0 holds everything; /stage0/block0 .. block5 hold 50 each
    GraphView view;
    GraphSearchBar search(&view);
    QMenu menu;
    addGraphViewActions(&menu, &view, &search);
    view.graphScene()->setCollapseThresholds(100, 20);  // a big graph: it collapses on its own
    view.setGraph(model->graph());
    QVERIFY(waitForLayout(view));
    QVERIFY(view.graphScene()->nodeItems().size() < 302);
    auto trigger = [&](const QString& text) {
        for (QAction* action : menu.actions()) {
            if (action->text().remove(QLatin1Char('&')) == text) action->trigger();
        }
    };
    trigger(QStringLiteral("Collapse All"));
    QVERIFY(waitForLayout(view));
    QCOMPARE(view.graphScene()->nodeItems().size(), size_t{6 + 2});
    GraphNodeItem* block = itemNamed(view, "/stage0/block3/unit0/Relu_150");
    QCOMPARE(block->kind(), VisibleKind::Block);
    trigger(QStringLiteral("Expand All"));  // the automatic collapse opens too
    QVERIFY(waitForLayout(view));
    QCOMPARE(view.graphScene()->nodeItems().size(), size_t{302});
}

void GraphNavigationTest::edgesShowTensorShapes() {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {2, 8});
    b.node("Relu", {"x"}, {"y"}, "relu");
    b.output("y");
    auto model = b.load();
    QVERIFY(model);
    GraphView view;
    GraphSearchBar search(&view);
    QMenu menu;
    addGraphViewActions(&menu, &view, &search);
    view.setGraph(model->graph());
    QVERIFY(waitForLayout(view));
    const auto& edges = view.graphScene()->edgeItems();
    QCOMPARE(edges.size(), size_t{2});
    QVERIFY2(edges[0]->toolTip().contains(QStringLiteral("[2,8]")), qPrintable(edges[0]->toolTip()));
    QCOMPARE(edges[0]->label(), QStringLiteral("2\u00d78"));
    QVERIFY(!edges[0]->isLabelVisible());
    const QRectF without = edges[0]->boundingRect();
    actionNamed(menu, QStringLiteral("ShowTensorShapesAction"))->trigger();
    QVERIFY(edges[0]->isLabelVisible());
    QVERIFY(edges[0]->boundingRect().width() > without.width());
    QCOMPARE(QSettings().value(kShowTensorShapesSetting).toBool(), true);
    // Labels survive a re-layout.
    view.setShowQdq(true);
    QVERIFY(waitForLayout(view));
    QVERIFY(view.graphScene()->edgeItems()[0]->isLabelVisible());
    // A label is painted above the nodes: an opaque box over it (a node beside a long edge's middle) must not hide
    // it, or "1x16x160x160" reads as "1x16x160".
    const GraphEdgeItem* edge = view.graphScene()->edgeItems()[0];
    const QRectF label = edge->labelRect();
    auto* cover = view.graphScene()->addRect(label.adjusted(-4, -4, 4, 4), Qt::NoPen, QColor(255, 0, 0));
    cover->setZValue(1);  // as the node boxes
    QImage image(label.size().toSize() * 4, QImage::Format_ARGB32);
    image.fill(Qt::black);
    {
        QPainter painter(&image);
        view.graphScene()->render(&painter, QRectF(), label);
    }
    const QColor padding = image.pixelColor(3, image.height() / 2);  // inside the label's box, left of the text
    QVERIFY2(padding.green() > 150, qPrintable(QStringLiteral("label covered: %1").arg(padding.name())));
    delete cover;
    actionNamed(menu, QStringLiteral("ShowTensorShapesAction"))->trigger();
}

// One input fanned out to many layers: the labels at the middles of its edges would smear into each other. Kept
// labels never intersect, and made-up names of unknown dimensions read "?".
void GraphNavigationTest::denseShapeLabelsDoNotCoverEachOther() {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {-1, 64, 1024, 1024});
    auto* dims = b.graph().mutable_input(0)->mutable_type()->mutable_tensor_type()->mutable_shape();
    dims->mutable_dim(0)->set_dim_param("p2o.DynamicDimension.0");
    dims->mutable_dim(1)->set_dim_param("unk__55");
    dims->mutable_dim(2)->set_dim_param("sequence_length_of_text");
    for (int i = 0; i < 12; ++i) {
        const std::string name = "relu" + std::to_string(i);
        b.node("Relu", {"x"}, {name + "_out"}, name);
        b.output(name + "_out");
    }
    auto model = b.load();
    QVERIFY(model);
    GraphView view;
    view.setShowTensorShapes(true);
    view.setGraph(model->graph());
    QVERIFY(waitForLayout(view));
    const auto& edges = view.graphScene()->edgeItems();
    QCOMPARE(edges.front()->label(), QStringLiteral("?\u00d7?\u00d7sequence_le\u2026\u00d71024"));
    // The input's box says the same (issue 29, item 8: PP-OCR's "x" read "...sion.1,p2o.DynamicDimension.2]").
    const VisibleGraph& shownGraph = view.graphScene()->layout()->graph;
    const auto input = std::find_if(shownGraph.nodes.begin(), shownGraph.nodes.end(),
                                    [](const VisibleNode& n) { return n.kind == VisibleKind::GraphInput; });
    QVERIFY(input != shownGraph.nodes.end());
    QVERIFY2(QString::fromStdString(input->subtitle).endsWith(QStringLiteral("[?,?,sequence_le\u2026,1024]")),
             input->subtitle.c_str());
    std::vector<QRectF> shown;
    int crowded = 0;
    for (const GraphEdgeItem* edge : edges) {
        if (edge->isLabelCrowded()) ++crowded;
        if (!edge->isLabelVisible()) continue;
        for (const QRectF& other : shown) QVERIFY2(!other.intersects(edge->labelRect()), qPrintable(edge->label()));
        shown.push_back(edge->labelRect());
    }
    QVERIFY(crowded > 0);
    QVERIFY(shown.size() > 1);
}

QTEST_MAIN(GraphNavigationTest)
#include "graph_navigation_test.moc"
