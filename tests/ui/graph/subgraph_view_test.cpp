// The graph view opens the bodies of control-flow nodes: by API, by double-click (then_branch first) and by the
// context menu's entries; bodies open inside bodies; the breadcrumb says where the view is and takes it back, as do
// Backspace and Alt+Left, selecting the node entered from; inside a body no main-graph id is announced, precision
// requests do nothing, search works on the body, lint badges show on the body's nodes and the node properties
// panel shows the body node; a new model shows its main graph.
#include <onnx/onnx_pb.h>

#include <QMenu>
#include <QSignalSpy>
#include <QToolButton>
#include <QTreeWidget>
#include <QtTest>

#include "tests/support/control_flow_model.h"
#include "tests/support/model_builder.h"
#include "tests/ui/panels/panel_test_util.h"
#include "ui/graph/graph_node_item.h"
#include "ui/graph/graph_view.h"
#include "ui/graph/subgraph_breadcrumb.h"
#include "ui/main_window.h"
#include "ui/model_document.h"
#include "ui/panels/node_properties_panel.h"

using namespace ql;
using namespace ql::ui;
using ql::test::rowValue;

class SubgraphViewTest : public QObject {
    Q_OBJECT
private slots:
    void openingByApiShowsExactlyTheBodysNodes();
    void doubleClickOpensThenBranchAndTheMenuListsEveryBody();
    void bodiesOpenInsideBodiesWithABreadcrumb();
    void backspaceAndAltLeftGoUpSelectingTheNodeEntered();
    void clickingACrumbGoesBackToItsLevel();
    void insideABodyNoMainGraphIdIsAnnounced();
    void precisionRequestsDoNothingInsideABody();
    void searchWorksWithinTheBodyShown();
    void searchLooksIntoBodiesAndOpensThem();
    void lintBadgesShowOnTheBodysNodes();
    void anotherModelShowsItsMainGraph();
    void theWindowShowsBodyNodesAndBodyFindings();
};

namespace {

bool waitForLayout(const GraphScene* scene) {
    return QTest::qWaitFor([&] { return scene->layout() && !scene->isLayoutPending(); }, 60000);
}

QStringList operatorNames(const GraphScene* scene) {
    QStringList names;
    for (const GraphNodeItem* item : scene->nodeItems()) {
        if (item->kind() != VisibleKind::Operator) continue;
        names << QString::fromStdString(scene->snapshot().nodes[static_cast<size_t>(scene->nodesOf(item)[0])].name);
    }
    names.sort();
    return names;
}

GraphNodeItem* itemNamed(const GraphScene* scene, const std::string& name) {
    const auto node = scene->snapshot().findNode(name);
    return node ? scene->itemForNode(*node) : nullptr;
}

NodeId idOf(const GraphScene* scene, const std::string& name) {
    return scene->snapshot().findNode(name).value_or(kNoId);
}

// The name of the single selected operator of the scene shown; empty when none or several.
QString selectedName(const GraphView& view) {
    const QList<QGraphicsItem*> items = view.shownScene()->selectedItems();
    if (items.size() != 1) return {};
    const auto* item = qgraphicsitem_cast<GraphNodeItem*>(items.front());
    if (!item || item->kind() != VisibleKind::Operator) return {};
    const NodeId node = view.shownScene()->nodesOf(item).front();
    return QString::fromStdString(view.shownScene()->snapshot().nodes[static_cast<size_t>(node)].name);
}

QPoint viewportPointOf(const GraphView& view, const GraphNodeItem* item) {
    return view.mapFromScene(item->mapToScene(item->boxRect().center()));
}

// The texts of the context menu the view shows on `item`.
QStringList contextMenuEntries(GraphView& view, const GraphNodeItem* item) {
    QStringList entries;
    QTimer::singleShot(0, [&] {
        auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
        if (!menu) return;
        for (QAction* action : menu->actions()) entries << action->text();
        menu->close();
    });
    const QPoint at = viewportPointOf(view, item);
    QContextMenuEvent event(QContextMenuEvent::Mouse, at, view.viewport()->mapToGlobal(at));
    QApplication::sendEvent(view.viewport(), &event);
    return entries;
}

struct ViewFixture {
    std::unique_ptr<Model> model = test::nestedControlFlowModel();
    GraphView view;

    bool show() {
        view.resize(900, 700);
        view.show();
        view.setGraph(model->graph());
        return waitForLayout(view.graphScene());
    }
    bool open(const std::string& node, const QString& attribute) {
        return view.openSubgraph(idOf(view.shownScene(), node), attribute) && waitForLayout(view.shownScene());
    }
};

QToolButton* crumbButton(const GraphView& view, const QString& text) {
    for (QToolButton* button : view.breadcrumb()->findChildren<QToolButton*>()) {
        if (button->isVisible() && button->text() == text) return button;
    }
    return nullptr;
}

// if cond: Q/DQ of the outer `x` with a zero scale (a lint error inside the body), else x.
std::string writeBranchWithAFinding(const test::TempDir& dir) {
    test::ModelBuilder thenB, elseB;
    thenB.initializer("s", {}, {0.0f});
    thenB.node("QuantizeLinear", {"x", "s"}, {"xq"}, "x_q");
    thenB.node("DequantizeLinear", {"xq", "s"}, {"xdq"}, "x_dq");
    thenB.node("Relu", {"xdq"}, {"out"}, "act");
    thenB.output("out", DataType::Float, {1, 4});
    elseB.node("Identity", {"x"}, {"xe"}, "same");
    elseB.output("xe", DataType::Float, {1, 4});
    test::ModelBuilder b;
    b.input("cond", DataType::Bool, {});
    b.input("x", DataType::Float, {1, 4});
    b.node("If", {"cond"}, {"y"}, "branch").graph("then_branch", thenB.graph()).graph("else_branch", elseB.graph());
    b.output("y", DataType::Float, {1, 4});
    const std::string path = dir.file("branch.onnx");
    b.save(path);
    return path;
}

}  // namespace

void SubgraphViewTest::openingByApiShowsExactlyTheBodysNodes() {
    ViewFixture f;
    QVERIFY(f.show());
    QCOMPARE(operatorNames(f.view.graphScene()), QStringList({"branch", "pre"}));
    QVERIFY(!f.view.breadcrumb()->isVisible());
    QVERIFY(f.open("branch", "else_branch"));
    QCOMPARE(f.view.subgraphDepth(), 1);
    QCOMPARE(f.view.scene(), f.view.shownScene());
    QVERIFY(f.view.shownScene() != f.view.graphScene());
    QCOMPARE(operatorNames(f.view.shownScene()), QStringList({"negate"}));
    QCOMPARE(f.view.subgraphPath(), QStringLiteral("branch/else_branch/"));
    // The main graph's scene is left as it was.
    QCOMPARE(operatorNames(f.view.graphScene()), QStringList({"branch", "pre"}));
    // Not a control-flow node, or not one of its bodies: nothing opens, and the view says why.
    QSignalSpy failed(&f.view, &GraphView::subgraphOpenFailed);
    QVERIFY(!f.view.openSubgraph(idOf(f.view.shownScene(), "negate"), QStringLiteral("body")));
    QCOMPARE(f.view.subgraphDepth(), 1);
    QCOMPARE(failed.count(), 1);
    QCOMPARE(failed.last().at(0).toString(),
             QStringLiteral("Node (negate) Op (Neg): has no subgraph attribute 'body'"));
}

void SubgraphViewTest::doubleClickOpensThenBranchAndTheMenuListsEveryBody() {
    ViewFixture f;
    QVERIFY(f.show());
    GraphNodeItem* branch = itemNamed(f.view.graphScene(), "branch");
    QVERIFY(branch);
    QVERIFY2(branch->toolTip().contains(QStringLiteral("Double-click to open then_branch")),
             qPrintable(branch->toolTip()));
    f.view.centerOn(branch);
    QTest::mouseDClick(f.view.viewport(), Qt::LeftButton, {}, viewportPointOf(f.view, branch));
    QCOMPARE(f.view.subgraphDepth(), 1);
    QVERIFY(waitForLayout(f.view.shownScene()));
    QCOMPARE(f.view.subgraphPath(), QStringLiteral("branch/then_branch/"));
    QCOMPARE(operatorNames(f.view.shownScene()), QStringList({"double", "repeat"}));

    // A double-click on an operator without a body opens nothing.
    GraphNodeItem* doubled = itemNamed(f.view.shownScene(), "double");
    f.view.centerOn(doubled);
    QTest::mouseDClick(f.view.viewport(), Qt::LeftButton, {}, viewportPointOf(f.view, doubled));
    QCOMPARE(f.view.subgraphDepth(), 1);

    // Its context menu goes back, and has no precision to set.
    QStringList entries = contextMenuEntries(f.view, doubled);
    QVERIFY2(entries.contains(QStringLiteral("Back to model")), qPrintable(entries.join('|')));
    QVERIFY2(!entries.contains(QStringLiteral("Set to INT8")), qPrintable(entries.join('|')));

    // The context menu of the If lists both bodies with their node counts.
    f.view.closeSubgraphs(0);
    entries = contextMenuEntries(f.view, itemNamed(f.view.graphScene(), "branch"));
    QVERIFY2(entries.contains(QStringLiteral("Open then_branch (2 nodes)")), qPrintable(entries.join('|')));
    QVERIFY2(entries.contains(QStringLiteral("Open else_branch (1 node)")), qPrintable(entries.join('|')));
    QVERIFY2(entries.contains(QStringLiteral("Set to INT8")), qPrintable(entries.join('|')));
}

void SubgraphViewTest::bodiesOpenInsideBodiesWithABreadcrumb() {
    ViewFixture f;
    QVERIFY(f.show());
    QVERIFY(f.open("branch", "then_branch"));
    QVERIFY(f.view.breadcrumb()->isVisible());
    QCOMPARE(f.view.breadcrumb()->text(), QStringLiteral("model \u203a branch \u203a then_branch"));
    // Where its precisions are set (bodies are planned and exported with Q/DQ since PrecisionPlan::bodies).
    QVERIFY(f.view.breadcrumb()->note().contains(QStringLiteral("rows of the precision table")));
    QVERIFY(!f.view.breadcrumb()->note().contains(QStringLiteral("without Q/DQ")));
    // The strip is above the graph, not over it.
    QVERIFY(f.view.breadcrumb()->geometry().bottom() < f.view.viewport()->geometry().top());

    QVERIFY(f.open("repeat", "body"));
    QCOMPARE(f.view.subgraphDepth(), 2);
    QCOMPARE(operatorNames(f.view.shownScene()), QStringList({"accumulate", "clamp", "keep_going"}));
    QCOMPARE(f.view.subgraphPath(), QStringLiteral("branch/then_branch/repeat/body/"));
    QCOMPARE(f.view.breadcrumb()->text(),
             QStringLiteral("model \u203a branch \u203a then_branch \u203a repeat \u203a body"));
    // The outer-scope value read two levels out is an input of the body.
    QVERIFY(f.view.shownScene()->snapshot().findValue("r"));
}

void SubgraphViewTest::backspaceAndAltLeftGoUpSelectingTheNodeEntered() {
    ViewFixture f;
    QVERIFY(f.show());
    QSignalSpy selected(&f.view, &GraphView::nodeSelected);
    QVERIFY(f.open("branch", "then_branch"));
    const int stripHeight = f.view.breadcrumb()->height();
    QVERIFY(f.open("repeat", "body"));

    QTest::keyClick(&f.view, Qt::Key_Backspace);
    QCOMPARE(f.view.subgraphDepth(), 1);
    QCOMPARE(f.view.breadcrumb()->height(), stripHeight);  // new crumbs are measured as they will be drawn
    QCOMPARE(operatorNames(f.view.shownScene()), QStringList({"double", "repeat"}));
    QCOMPARE(selectedName(f.view), QStringLiteral("repeat"));
    QVERIFY(selected.isEmpty());  // a body's node is not the main graph's

    QTest::keyClick(&f.view, Qt::Key_Left, Qt::AltModifier);
    QCOMPARE(f.view.subgraphDepth(), 0);
    QCOMPARE(f.view.scene(), f.view.graphScene());
    QVERIFY(!f.view.breadcrumb()->isVisible());
    QCOMPARE(selectedName(f.view), QStringLiteral("branch"));
    QVERIFY(f.view.viewport()->rect().contains(viewportPointOf(f.view, itemNamed(f.view.graphScene(), "branch"))));
    QCOMPARE(selected.count(), 1);
    QCOMPARE(selected.last().at(0).value<NodeId>(), idOf(f.view.graphScene(), "branch"));

    // Backspace on the main graph is not a way out of anything.
    QTest::keyClick(&f.view, Qt::Key_Backspace);
    QCOMPARE(f.view.subgraphDepth(), 0);
    QCOMPARE(selectedName(f.view), QStringLiteral("branch"));
}

void SubgraphViewTest::clickingACrumbGoesBackToItsLevel() {
    ViewFixture f;
    QVERIFY(f.show());
    QVERIFY(f.open("branch", "then_branch"));
    QVERIFY(f.open("repeat", "body"));
    QVERIFY(!crumbButton(f.view, QStringLiteral("body")));  // the level shown is not a button

    QToolButton* thenBranch = crumbButton(f.view, QStringLiteral("then_branch"));
    QVERIFY(thenBranch);
    thenBranch->click();
    QCOMPARE(f.view.subgraphDepth(), 1);
    QCOMPARE(selectedName(f.view), QStringLiteral("repeat"));
    QCOMPARE(f.view.breadcrumb()->text(), QStringLiteral("model \u203a branch \u203a then_branch"));

    QVERIFY(f.open("repeat", "body"));
    QToolButton* model = crumbButton(f.view, QStringLiteral("model"));
    QVERIFY(model);
    model->click();
    QCOMPARE(f.view.subgraphDepth(), 0);
    QCOMPARE(f.view.scene(), f.view.graphScene());
    QCOMPARE(selectedName(f.view), QStringLiteral("branch"));
}

void SubgraphViewTest::insideABodyNoMainGraphIdIsAnnounced() {
    ViewFixture f;
    QVERIFY(f.show());
    QSignalSpy mainSelected(&f.view, &GraphView::nodeSelected);
    QSignalSpy bodySelected(&f.view, &GraphView::subgraphNodeSelected);
    QVERIFY(f.open("branch", "then_branch"));
    for (const char* name : {"double", "repeat"}) {
        GraphNodeItem* item = itemNamed(f.view.shownScene(), name);
        f.view.centerOn(item);
        QTest::mouseClick(f.view.viewport(), Qt::LeftButton, {}, viewportPointOf(f.view, item));
        QCOMPARE(selectedName(f.view), QString::fromLatin1(name));
    }
    QCOMPARE(mainSelected.count(), 0);
    QCOMPARE(bodySelected.count(), 2);
    const QList<QVariant> last = bodySelected.last();
    const auto body = last.at(0).value<std::shared_ptr<const SubgraphModel>>();
    QVERIFY(body);
    QCOMPARE(body->graph.node(last.at(1).value<NodeId>()).name, std::string("repeat"));
    QCOMPARE(last.at(2).toString(), QStringLiteral("branch/then_branch/"));
    QVERIFY(f.view.selectedNodes().isEmpty());

    // A main-graph node selected from elsewhere (a panel) brings the main graph back.
    f.view.selectNode(idOf(f.view.graphScene(), "pre"));
    QCOMPARE(f.view.subgraphDepth(), 0);
    QCOMPARE(selectedName(f.view), QStringLiteral("pre"));
    QCOMPARE(mainSelected.count(), 1);
    QCOMPARE(mainSelected.last().at(0).value<NodeId>(), idOf(f.view.graphScene(), "pre"));
}

void SubgraphViewTest::precisionRequestsDoNothingInsideABody() {
    ViewFixture f;
    QVERIFY(f.show());
    QSignalSpy cycled(&f.view, &GraphView::precisionCycleRequested);
    QSignalSpy set(&f.view, &GraphView::precisionSetRequested);
    // On the main graph they are made...
    f.view.selectNode(idOf(f.view.graphScene(), "pre"));
    QTest::keyClick(&f.view, Qt::Key_P);
    QTest::keyClick(&f.view, Qt::Key_1, Qt::ControlModifier);
    QCOMPARE(cycled.count(), 1);
    QCOMPARE(set.count(), 1);
    // ... inside a body they are not, whatever is selected.
    QVERIFY(f.open("branch", "then_branch"));
    itemNamed(f.view.shownScene(), "double")->setSelected(true);
    QTest::keyClick(&f.view, Qt::Key_P);
    for (Qt::Key key : {Qt::Key_1, Qt::Key_2, Qt::Key_3}) QTest::keyClick(&f.view, key, Qt::ControlModifier);
    f.view.requestPrecisionCycle();
    f.view.requestPrecision(Precision::Int8);
    QCOMPARE(cycled.count(), 1);
    QCOMPARE(set.count(), 1);
}

void SubgraphViewTest::searchWorksWithinTheBodyShown() {
    ViewFixture f;
    QVERIFY(f.show());
    QVERIFY(f.open("branch", "then_branch"));
    QVERIFY(f.view.findAndCenter(QStringLiteral("double")));
    QCOMPARE(selectedName(f.view), QStringLiteral("double"));
    QCOMPARE(f.view.search().count(), 1);
    QVERIFY(!f.view.findAndCenter(QStringLiteral("pre")));  // the main graph's node is not in the body
    QVERIFY(f.open("repeat", "body"));
    QCOMPARE(f.view.search().count(), 0);  // a new level starts without a search
    QVERIFY(f.view.findAndCenter(QStringLiteral("Add")));
    QCOMPARE(selectedName(f.view), QStringLiteral("accumulate"));
}

// Issue 29: Silero VAD does its work inside If bodies, where search did not look. A match in a body comes after the
// graph's own, opens the bodies it is in and selects it; the next match goes back to the level searched.
void SubgraphViewTest::searchLooksIntoBodiesAndOpensThem() {
    ViewFixture f;
    QVERIFY(f.show());
    QVERIFY(f.view.findAndCenter(QStringLiteral("clamp")));  // in the Loop's body inside then_branch
    QCOMPARE(f.view.search().count(), 1);
    QCOMPARE(f.view.subgraphDepth(), 2);
    QVERIFY(waitForLayout(f.view.shownScene()));
    QCOMPARE(selectedName(f.view), QStringLiteral("clamp"));
    f.view.closeSubgraphs(0);                               // a search starts from the level shown
    QVERIFY(f.view.findAndCenter(QStringLiteral("Relu")));  // "pre" in the main graph, then "clamp"
    QCOMPARE(f.view.search().count(), 2);
    QCOMPARE(f.view.subgraphDepth(), 0);
    QVERIFY(waitForLayout(f.view.shownScene()));
    QCOMPARE(selectedName(f.view), QStringLiteral("pre"));
    f.view.findNext(QStringLiteral("Relu"));
    QCOMPARE(f.view.subgraphDepth(), 2);
    QCOMPARE(f.view.search().current(), 1);  // the search goes on in the body it opened
    QVERIFY(waitForLayout(f.view.shownScene()));
    QCOMPARE(selectedName(f.view), QStringLiteral("clamp"));
    f.view.findNext(QStringLiteral("Relu"));
    QCOMPARE(f.view.subgraphDepth(), 0);
    QCOMPARE(selectedName(f.view), QStringLiteral("pre"));
    QVERIFY(f.view.findAndCenter(QStringLiteral("negate")));  // else_branch
    QCOMPARE(f.view.subgraphPath(), QStringLiteral("branch/else_branch/"));
}

void SubgraphViewTest::lintBadgesShowOnTheBodysNodes() {
    ViewFixture f;
    QVERIFY(f.show());
    f.view.setSubgraphBadge("branch/then_branch/double", Severity::Warning, QStringLiteral("in the branch"));
    f.view.setSubgraphBadge("branch/then_branch/repeat/body/clamp", Severity::Error, QStringLiteral("in the loop"));
    QVERIFY(f.open("branch", "then_branch"));
    QVERIFY(itemNamed(f.view.shownScene(), "double")->badge() == std::optional(Severity::Warning));
    // Deeper: on the control-flow node holding it.
    QVERIFY(itemNamed(f.view.shownScene(), "repeat")->badge() == std::optional(Severity::Error));
    QVERIFY(f.open("repeat", "body"));
    QVERIFY(itemNamed(f.view.shownScene(), "clamp")->badge() == std::optional(Severity::Error));
    QVERIFY(itemNamed(f.view.shownScene(), "accumulate")->badge() == std::nullopt);
    // Badges set while the body is open show at once; clearing them clears the body's too.
    f.view.setSubgraphBadge("branch/then_branch/repeat/body/accumulate", Severity::Info, QStringLiteral("note"));
    QVERIFY(itemNamed(f.view.shownScene(), "accumulate")->badge() == std::optional(Severity::Info));
    f.view.clearNodeBadges();
    QVERIFY(itemNamed(f.view.shownScene(), "clamp")->badge() == std::nullopt);
}

void SubgraphViewTest::anotherModelShowsItsMainGraph() {
    ModelDocument document;
    GraphView view;
    view.resize(900, 700);
    view.show();
    view.setDocument(&document);
    document.replaceModel(std::shared_ptr<Model>(test::nestedControlFlowModel()));
    QVERIFY(waitForLayout(view.graphScene()));
    QVERIFY(view.openSubgraph(idOf(view.graphScene(), "branch"), QStringLiteral("then_branch")));
    QVERIFY(view.openSubgraph(idOf(view.shownScene(), "repeat"), QStringLiteral("body")));
    QVERIFY(view.breadcrumb()->text().startsWith(document.fileName() + QStringLiteral(" \u203a branch")));

    test::ModelBuilder other;
    other.input("a", DataType::Float, {1, 4});
    other.node("Sigmoid", {"a"}, {"b"}, "squash");
    other.output("b");
    document.replaceModel(std::shared_ptr<Model>(other.load()));
    QCOMPARE(view.subgraphDepth(), 0);
    QCOMPARE(view.scene(), view.graphScene());
    QVERIFY(!view.breadcrumb()->isVisible());
    QVERIFY(waitForLayout(view.graphScene()));
    QCOMPARE(operatorNames(view.shownScene()), QStringList({"squash"}));
}

void SubgraphViewTest::theWindowShowsBodyNodesAndBodyFindings() {
    test::TempDir dir;
    MainWindow window;
    window.show();
    QVERIFY(test::openAndWaitForLayout(window, QString::fromStdString(writeBranchWithAFinding(dir))));
    auto* view = window.findChild<GraphView*>();
    auto* panel = window.findChild<NodePropertiesPanel*>();
    QVERIFY(view->openSubgraph(idOf(view->graphScene(), "branch"), QStringLiteral("then_branch")));
    QVERIFY(waitForLayout(view->shownScene()));
    // The zero scale's finding, reported on the If, is on its own node inside the body (Q/DQ shown there too).
    view->setShowQdq(true);
    QVERIFY(waitForLayout(view->shownScene()));
    QVERIFY(itemNamed(view->shownScene(), "x_q")->badge() == std::optional(Severity::Error));

    view->shownScene()->clearSelection();
    itemNamed(view->shownScene(), "act")->setSelected(true);
    QVERIFY(panel->body());
    const QTreeWidget* tree = panel->tree();
    QCOMPARE(rowValue(tree, "Node", "Name"), QStringLiteral("branch/then_branch/act"));
    QCOMPARE(rowValue(tree, "Node", "Op"), QStringLiteral("Relu"));
    QVERIFY2(rowValue(tree, "Inputs", "X").startsWith(QStringLiteral("xdq: FLOAT [1,4]")),
             qPrintable(rowValue(tree, "Inputs", "X")));
    // The body carries Q/DQ: its layers show what the file says (carried_model.h), not an unplanned FP32 body.
    QCOMPARE(rowValue(tree, "Precision", "Effective"), QStringLiteral("INT8"));

    // The DequantizeLinear lists its finding.
    view->shownScene()->clearSelection();
    itemNamed(view->shownScene(), "x_q")->setSelected(true);
    QVERIFY(rowValue(tree, "TensorRT findings", "error").contains(QStringLiteral("branch/then_branch/")));

    // Back on the main graph, the If is shown again, with the plan's rows.
    QTest::keyClick(view, Qt::Key_Backspace);
    QVERIFY(!panel->body());
    QCOMPARE(rowValue(tree, "Node", "Name"), QStringLiteral("branch"));
    QVERIFY(!rowValue(tree, "Precision", "Effective").startsWith(QStringLiteral("<no row")));
}

QTEST_MAIN(SubgraphViewTest)
#include "subgraph_view_test.moc"
