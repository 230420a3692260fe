// Values a control-flow node's bodies read from the enclosing graph (outer scope, ONNX's implicit inputs): the
// snapshot lists them on the node (nested bodies included, body-local names not), the visible graph joins their
// boxes to the node with an outer-scope edge (not beside a data edge carrying the same tensor), the view draws it
// dashed and says in its tool tip where the tensor is read, both layouts put the value above the node, a collapsed
// scope keeps the edge, and arrow keys and search reach the node from such a value.
#include <QGraphicsScene>
#include <QPainter>
#include <QtTest>
#include <algorithm>

#include "tests/support/model_builder.h"
#include "tests/ui/window_test_util.h"
#include "ui/graph/graph_edge_item.h"
#include "ui/graph/graph_node_item.h"
#include "ui/graph/graph_view.h"
#include "ui/graph/visible_graph.h"

using namespace ql;
using namespace ql::ui;

Q_DECLARE_METATYPE(ql::ui::LayoutAlgorithm)

class OuterScopeEdgesTest : public QObject {
    Q_OBJECT
private slots:
    void snapshotListsValuesReadInsideBodies();
    void snapshotListsNestedReadsOnTheOuterNode();
    void visibleGraphJoinsOuterValuesToTheNode();
    void viewDrawsOuterScopeEdges_data();
    void viewDrawsOuterScopeEdges();
    void outerScopeEdgeIsDrawnDashed();
    void nestedBodiesShowTheirOuterReads();
    void collapsedScopeKeepsTheOuterScopeEdge();
    void arrowKeysAndSearchReachTheNodeFromItsOuterInput();
    void legendListsTheDashedEdgeWhileOneIsShown();
};

namespace {

// cond, x, y -> Relu "pre" (y) -> r -> If "branch" (cond) -> out -> Relu "post" -> t
//   then_branch: Add "then_add" (x, r) -> t (a body-local `t`, though the main graph has a `t` too),
//                Where "then_pick" (cond, t, x) -> then_out
//   else_branch: Neg "else_neg" (x) -> else_out
// x is read only inside both branches, r only inside then_branch, cond both as the If's input and inside.
// `scope` prefixes the names of "pre" and "branch".
std::unique_ptr<Model> outerScopeModel(const std::string& scope = "") {
    test::ModelBuilder thenBranch;
    thenBranch.node("Add", {"x", "r"}, {"t"}, "then_add");
    thenBranch.node("Where", {"cond", "t", "x"}, {"then_out"}, "then_pick");
    thenBranch.output("then_out", DataType::Float, {1, 4}, true);
    test::ModelBuilder elseBranch;
    elseBranch.node("Neg", {"x"}, {"else_out"}, "else_neg");
    elseBranch.output("else_out", DataType::Float, {1, 4}, true);
    test::ModelBuilder b;
    b.input("cond", DataType::Bool, {});
    b.input("x", DataType::Float, {1, 4});
    b.input("y", DataType::Float, {1, 4});
    b.node("Relu", {"y"}, {"r"}, scope + "pre");
    b.node("If", {"cond"}, {"out"}, scope + "branch")
        .graph("then_branch", thenBranch.graph())
        .graph("else_branch", elseBranch.graph());
    b.node("Relu", {"out"}, {"t"}, "post");
    b.output("t");
    return b.load();
}

// c1, c2, z -> If "outer" (c1) -> o
//   then_branch: If "inner" (c2) -> io;  then_branch: Neg (z) -> n;  else_branch: Identity (z) -> m
//   else_branch: Identity "keep" (zero, a body initializer) -> e
std::unique_ptr<Model> nestedModel() {
    test::ModelBuilder innerThen;
    innerThen.node("Neg", {"z"}, {"n"}, "inner_neg");
    innerThen.output("n", DataType::Float, {1, 4}, true);
    test::ModelBuilder innerElse;
    innerElse.node("Identity", {"z"}, {"m"}, "inner_keep");
    innerElse.output("m", DataType::Float, {1, 4}, true);
    test::ModelBuilder outerThen;
    outerThen.node("If", {"c2"}, {"io"}, "inner")
        .graph("then_branch", innerThen.graph())
        .graph("else_branch", innerElse.graph());
    outerThen.output("io", DataType::Float, {1, 4}, true);
    test::ModelBuilder outerElse;
    outerElse.initializer("zero", {1, 4}, {0, 0, 0, 0});
    outerElse.node("Identity", {"zero"}, {"e"}, "keep");
    outerElse.output("e", DataType::Float, {1, 4}, true);
    test::ModelBuilder b;
    b.input("c1", DataType::Bool, {});
    b.input("c2", DataType::Bool, {});
    b.input("z", DataType::Float, {1, 4});
    b.node("If", {"c1"}, {"o"}, "outer")
        .graph("then_branch", outerThen.graph())
        .graph("else_branch", outerElse.graph());
    b.output("o");
    return b.load();
}

ValueId valueId(const GraphSnapshot& snapshot, const std::string& name) {
    return snapshot.findValue(name).value_or(kNoId);
}

const SnapshotNode& nodeNamed(const GraphSnapshot& snapshot, const std::string& name) {
    return snapshot.nodes[static_cast<size_t>(snapshot.findNode(name).value())];
}

std::vector<ValueId> valueIds(const GraphSnapshot& snapshot, const std::vector<std::string>& names) {
    std::vector<ValueId> ids;
    for (const std::string& name : names) ids.push_back(valueId(snapshot, name));
    return ids;
}

bool waitForLayout(const GraphScene* scene) {
    return QTest::qWaitFor([&] { return scene->layout() && !scene->isLayoutPending(); }, 60000);
}

// `graph` in `view`, on screen at a usual size (keys and bodies need a shown view), laid out.
bool showLaidOut(GraphView& view, const Graph& graph) {
    view.resize(900, 700);
    view.show();
    view.setGraph(graph);
    return waitForLayout(view.graphScene());
}

// The box of graph input `name`, or of operator `name`; -1 when not shown.
int inputBox(const GraphScene* scene, const std::string& name) {
    const VisibleGraph& graph = scene->layout()->graph;
    for (size_t i = 0; i < graph.nodes.size(); ++i) {
        const VisibleNode& node = graph.nodes[i];
        if (node.kind == VisibleKind::GraphInput &&
            scene->snapshot().values[static_cast<size_t>(node.value)].name == name)
            return static_cast<int>(i);
    }
    return -1;
}

int operatorBox(const GraphScene* scene, const std::string& name) {
    const auto node = scene->snapshot().findNode(name);
    const GraphNodeItem* item = node ? scene->itemForNode(*node) : nullptr;
    return item ? item->index() : -1;
}

// The edge items drawn from box `from` to box `to`.
std::vector<const GraphEdgeItem*> edgesBetween(const GraphScene* scene, int from, int to) {
    std::vector<const GraphEdgeItem*> edges;
    for (const GraphEdgeItem* edge : scene->edgeItems()) {
        if (edge->fromIndex() == from && edge->toIndex() == to) edges.push_back(edge);
    }
    return edges;
}

const GraphNodeItem* selectedItem(const GraphView& view) {
    const QList<QGraphicsItem*> items = view.shownScene()->selectedItems();
    return items.size() == 1 ? qgraphicsitem_cast<const GraphNodeItem*>(items.front()) : nullptr;
}

}  // namespace

void OuterScopeEdgesTest::snapshotListsValuesReadInsideBodies() {
    auto model = outerScopeModel();
    QVERIFY(model);
    const GraphSnapshot snapshot = GraphSnapshot::from(model->graph());
    const SnapshotNode& branch = nodeNamed(snapshot, "branch");
    // then_branch comes first: x, r, cond in the order it reads them; its own `t` is no read of the main graph's.
    QCOMPARE(branch.outerInputs, valueIds(snapshot, {"x", "r", "cond"}));
    QCOMPARE(branch.subgraphs.size(), size_t{2});
    QCOMPARE(branch.subgraphs[0].outerInputs, valueIds(snapshot, {"x", "r", "cond"}));
    QCOMPARE(branch.subgraphs[1].outerInputs, valueIds(snapshot, {"x"}));
    QVERIFY(std::ranges::find(branch.outerInputs, valueId(snapshot, "t")) == branch.outerInputs.end());
    QCOMPARE(bodiesReading(branch, valueId(snapshot, "x")), (std::vector<std::string>{"then_branch", "else_branch"}));
    QCOMPARE(bodiesReading(branch, valueId(snapshot, "r")), (std::vector<std::string>{"then_branch"}));
    QVERIFY(bodiesReading(branch, valueId(snapshot, "y")).empty());
    // The values know their readers, and nodes without bodies read nothing from outer scope.
    QCOMPARE(snapshot.values[static_cast<size_t>(valueId(snapshot, "x"))].outerReaders,
             std::vector<NodeId>{*snapshot.findNode("branch")});
    QVERIFY(snapshot.values[static_cast<size_t>(valueId(snapshot, "t"))].outerReaders.empty());
    QVERIFY(nodeNamed(snapshot, "pre").outerInputs.empty());
    QVERIFY(nodeNamed(snapshot, "post").outerInputs.empty());
}

void OuterScopeEdgesTest::snapshotListsNestedReadsOnTheOuterNode() {
    auto model = nestedModel();
    QVERIFY(model);
    const GraphSnapshot snapshot = GraphSnapshot::from(model->graph());
    const SnapshotNode& outer = nodeNamed(snapshot, "outer");
    // The inner If's condition and what its own branches read, found through the outer then_branch.
    QCOMPARE(outer.outerInputs, valueIds(snapshot, {"c2", "z"}));
    QCOMPARE(bodiesReading(outer, valueId(snapshot, "z")), std::vector<std::string>{"then_branch"});
    QVERIFY(outer.subgraphs[1].outerInputs.empty());  // else_branch reads its own initializer only
}

void OuterScopeEdgesTest::visibleGraphJoinsOuterValuesToTheNode() {
    auto model = outerScopeModel();
    QVERIFY(model);
    const GraphSnapshot snapshot = GraphSnapshot::from(model->graph());
    const VisibleGraph graph = buildVisibleGraph(snapshot, {});
    const NodeId branch = *snapshot.findNode("branch");
    const int branchBox = graph.itemOfNode[static_cast<size_t>(branch)];
    auto edgesInto = [&](const std::string& value) {
        std::vector<VisibleEdge> edges;
        for (const VisibleEdge& edge : graph.edges) {
            if (edge.to == branchBox && edge.value == valueId(snapshot, value)) edges.push_back(edge);
        }
        return edges;
    };
    QCOMPARE(edgesInto("x").size(), size_t{1});
    QVERIFY(edgesInto("x")[0].outerScope);
    QCOMPARE(edgesInto("x")[0].reader, branch);
    QCOMPARE(edgesInto("r").size(), size_t{1});
    QVERIFY(edgesInto("r")[0].outerScope);
    QCOMPARE(edgesInto("r")[0].from, graph.itemOfNode[static_cast<size_t>(*snapshot.findNode("pre"))]);
    // cond is the If's input: one data edge, no dashed one beside it.
    QCOMPARE(edgesInto("cond").size(), size_t{1});
    QVERIFY(!edgesInto("cond")[0].outerScope);
    // Data edges come first: a box's first predecessor is its first input's producer.
    QVERIFY(!graph.edges.front().outerScope);
}

void OuterScopeEdgesTest::viewDrawsOuterScopeEdges_data() {
    QTest::addColumn<size_t>("dotLimit");
    QTest::addColumn<LayoutAlgorithm>("algorithm");
    QTest::newRow("dot") << size_t{1500} << LayoutAlgorithm::Dot;
    QTest::newRow("layered") << size_t{0} << LayoutAlgorithm::Layered;
}

void OuterScopeEdgesTest::viewDrawsOuterScopeEdges() {
    QFETCH(size_t, dotLimit);
    QFETCH(LayoutAlgorithm, algorithm);
    auto model = outerScopeModel();
    QVERIFY(model);
    GraphView view;
    LayoutOptions options;
    options.dotLimit = dotLimit;
    view.graphScene()->setLayoutOptions(options);
    view.setGraph(model->graph());
    const GraphScene* scene = view.graphScene();
    QVERIFY(waitForLayout(scene));
    QCOMPARE(scene->layout()->algorithm, algorithm);
    const int x = inputBox(scene, "x");
    const int cond = inputBox(scene, "cond");
    const int branch = operatorBox(scene, "branch");
    QVERIFY(x >= 0 && cond >= 0 && branch >= 0);

    const auto fromX = edgesBetween(scene, x, branch);
    QCOMPARE(fromX.size(), size_t{1});
    QVERIFY(fromX[0]->isOuterScope());
    const QString tip = fromX[0]->toolTip();
    QVERIFY2(tip.contains(QStringLiteral("x \u2192 branch")), qPrintable(tip));
    QVERIFY2(tip.contains(QStringLiteral("read inside then_branch, else_branch")), qPrintable(tip));
    QVERIFY2(tip.contains(QStringLiteral("[1,4]")), qPrintable(tip));
    const auto fromPre = edgesBetween(scene, operatorBox(scene, "pre"), branch);
    QCOMPARE(fromPre.size(), size_t{1});
    QVERIFY(fromPre[0]->isOuterScope());
    QVERIFY2(fromPre[0]->toolTip().contains(QStringLiteral("read inside then_branch)")),
             qPrintable(fromPre[0]->toolTip()));
    // A data edge is not marked, and cond, read inside then_branch too, gets no second edge.
    const auto fromCond = edgesBetween(scene, cond, branch);
    QCOMPARE(fromCond.size(), size_t{1});
    QVERIFY(!fromCond[0]->isOuterScope());
    QVERIFY(!edgesBetween(scene, branch, operatorBox(scene, "post")).front()->isOuterScope());
    // The layout treats it as an edge: x sits above the If, no longer floating beside it.
    const auto& rects = scene->layout()->nodeRects;
    QVERIFY(rects[static_cast<size_t>(x)].y + rects[static_cast<size_t>(x)].height <=
            rects[static_cast<size_t>(branch)].y);
}

// The same route drawn as a data edge and as an outer-scope edge: the dashed one leaves gaps along its line.
void OuterScopeEdgesTest::outerScopeEdgeIsDrawnDashed() {
    EdgeRoute route;
    route.points = {{10, 10}, {10, 110}};
    auto inkedRows = [&](bool outerScope) {
        VisibleEdge edge;
        edge.outerScope = outerScope;
        QGraphicsScene scene;
        auto* item = new GraphEdgeItem(route, edge, QString(), QString());
        scene.addItem(item);
        QImage image(40, 140, QImage::Format_ARGB32);
        image.fill(Qt::white);
        QPainter painter(&image);
        scene.render(&painter, QRectF(0, 0, 40, 140), QRectF(0, 0, 40, 140));
        painter.end();
        int rows = 0;
        for (int y = 12; y < 100; ++y) rows += image.pixelColor(10, y).lightness() < 200 ? 1 : 0;
        return std::pair{rows, item->isOuterScope()};
    };
    const auto [solid, solidMarked] = inkedRows(false);
    const auto [dashed, dashedMarked] = inkedRows(true);
    QVERIFY(!solidMarked);
    QVERIFY(dashedMarked);
    QVERIFY2(solid > 80, qPrintable(QString::number(solid)));
    QVERIFY2(dashed > 20 && dashed < solid * 3 / 4, qPrintable(QStringLiteral("%1 of %2").arg(dashed).arg(solid)));
}

void OuterScopeEdgesTest::nestedBodiesShowTheirOuterReads() {
    auto model = nestedModel();
    QVERIFY(model);
    GraphView view;
    QVERIFY(showLaidOut(view, model->graph()));
    const GraphScene* scene = view.graphScene();
    const auto fromZ = edgesBetween(scene, inputBox(scene, "z"), operatorBox(scene, "outer"));
    QCOMPARE(fromZ.size(), size_t{1});
    QVERIFY(fromZ[0]->isOuterScope());
    QVERIFY2(fromZ[0]->toolTip().contains(QStringLiteral("read inside then_branch)")), qPrintable(fromZ[0]->toolTip()));
    // Inside the outer then_branch, z is an input of the body's graph, read by the inner If's branches.
    QVERIFY(view.openSubgraph(*scene->snapshot().findNode("outer"), QStringLiteral("then_branch")));
    const GraphScene* body = view.shownScene();
    QVERIFY(body != scene);
    QVERIFY(waitForLayout(body));
    const auto inBody = edgesBetween(body, inputBox(body, "z"), operatorBox(body, "inner"));
    QCOMPARE(inBody.size(), size_t{1});
    QVERIFY(inBody[0]->isOuterScope());
    QVERIFY2(inBody[0]->toolTip().contains(QStringLiteral("read inside then_branch, else_branch")),
             qPrintable(inBody[0]->toolTip()));
}

// "/blk/pre" and "/blk/branch" collapse into one block: r flows inside it (no edge), y and cond flow in as data,
// and x, read only inside the If's bodies, still joins the block with an outer-scope edge.
void OuterScopeEdgesTest::collapsedScopeKeepsTheOuterScopeEdge() {
    auto model = outerScopeModel("/blk/");
    QVERIFY(model);
    GraphView view;
    view.setGraph(model->graph());
    GraphScene* scene = view.graphScene();
    QVERIFY(waitForLayout(scene));
    scene->collapseScope("/blk");
    QVERIFY(waitForLayout(scene));
    const int block = operatorBox(scene, "/blk/branch");
    QCOMPARE(block, operatorBox(scene, "/blk/pre"));
    QCOMPARE(scene->nodeItems()[static_cast<size_t>(block)]->kind(), VisibleKind::Block);
    const auto fromX = edgesBetween(scene, inputBox(scene, "x"), block);
    QCOMPARE(fromX.size(), size_t{1});
    QVERIFY(fromX[0]->isOuterScope());
    const auto fromY = edgesBetween(scene, inputBox(scene, "y"), block);
    QCOMPARE(fromY.size(), size_t{1});
    QVERIFY(!fromY[0]->isOuterScope());
    // cond flows into the block as the If's input: read inside then_branch too, it gets no dashed twin.
    const auto fromCond = edgesBetween(scene, inputBox(scene, "cond"), block);
    QCOMPARE(fromCond.size(), size_t{1});
    QVERIFY(!fromCond[0]->isOuterScope());
    QVERIFY(edgesBetween(scene, block, block).empty());
}

void OuterScopeEdgesTest::arrowKeysAndSearchReachTheNodeFromItsOuterInput() {
    auto model = outerScopeModel();
    QVERIFY(model);
    GraphView view;
    QVERIFY(showLaidOut(view, model->graph()));
    const GraphScene* scene = view.graphScene();
    GraphNodeItem* x = scene->nodeItems()[static_cast<size_t>(inputBox(scene, "x"))];
    x->setSelected(true);
    QTest::keyClick(&view, Qt::Key_Down);  // into the If that reads it
    QCOMPARE(selectedItem(view), scene->nodeItems()[static_cast<size_t>(operatorBox(scene, "branch"))]);
    QTest::keyClick(&view, Qt::Key_Up);  // back up its data input, the condition
    QCOMPARE(selectedItem(view), scene->nodeItems()[static_cast<size_t>(inputBox(scene, "cond"))]);
    // Searching for x, which no node takes as an input, finds the If that reads it.
    QVERIFY(view.findAndCenter(QStringLiteral("x")));
    QCOMPARE(selectedItem(view), scene->nodeItems()[static_cast<size_t>(operatorBox(scene, "branch"))]);
}

// The legend explains the dashed edge while the graph has one, and says nothing of it otherwise.
void OuterScopeEdgesTest::legendListsTheDashedEdgeWhileOneIsShown() {
    auto model = outerScopeModel();
    QVERIFY(model);
    auto plainModel = test::tinyModel().load();
    QVERIFY(plainModel);
    GraphView view;
    view.setGraph(model->graph());
    QVERIFY(waitForLayout(view.graphScene()));
    QVERIFY(view.legend()->labels().contains(QStringLiteral("read inside a body")));
    view.setGraph(plainModel->graph());
    QVERIFY(waitForLayout(view.graphScene()));
    QVERIFY(!view.legend()->labels().contains(QStringLiteral("read inside a body")));
}

QTEST_MAIN(OuterScopeEdgesTest)
#include "outer_scope_edges_test.moc"
