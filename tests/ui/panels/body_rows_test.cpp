// The layers of If/Loop/Scan bodies in the precision table (issue 29, "Subgraphs"): their rows follow their
// control-flow node's, editing one plans the body (undoably), effective precision and reason come from the body's
// plan, the INT8 count follows, the selection edits, "All <op> nodes" and the filter treat them as layers of their
// own, Node Properties shows the layer; a plan file, the undo stack and a project keep the body plans.
#include <QAbstractItemModelTester>
#include <QTableView>
#include <QUndoStack>
#include <QtTest>

#include "tests/support/control_flow_model.h"
#include "tests/support/model_builder.h"
#include "tests/ui/panels/panel_test_util.h"
#include "ui/graph/graph_view.h"
#include "ui/graph/node_style.h"
#include "ui/import_controller.h"
#include "ui/main_window.h"
#include "ui/model_document.h"
#include "ui/panels/node_properties_panel.h"
#include "ui/panels/precision_filter_model.h"
#include "ui/panels/precision_panel.h"
#include "ui/panels/precision_table_model.h"
#include "ui/plots/layer_error_plot.h"
#include "ui/project_file.h"

using namespace ql;
using namespace ql::ui;

class BodyRowsTest : public QObject {
    Q_OBJECT
private slots:
    void bodyRowsFollowTheirParentInOrder();
    void editingABodyRowPlansTheBodyAndUndoRestores();
    void effectiveAndReasonComeFromTheBodyPlan();
    void aControlFlowNodeIsNoFallback();
    void int8CountFollowsABodyLayer();
    void selectionEditsSetBodyLayersNotTheirParent();
    void filterMatchesBodyLayerNames();
    void theGraphEchoingTheParentKeepsTheBodyRowCurrent();
    void aBodyRowShowsItsLayerInNodeProperties();
    void aLayerFoundInABodyBecomesTheCurrentRow();
    void allOfAnOpTypeReachesIntoBodies();
    void analysisColumnsShowTheBodyLayersAndGoStale();
    void layerErrorPlotPlacesBodyLayersAfterTheirNode();
    void importedPlanKeepsItsBodiesThroughUndo();
    void projectRoundTripKeepsBodies();
};

namespace {

const BodyPath kThen = {{"route", "then_branch"}};

struct Fixture {
    test::TempDir dir;
    std::string modelPath = dir.file("branches.onnx");
    ModelDocument document;
    PrecisionTableModel table{&document};

    Fixture() {
        test::writeFile(modelPath, test::convBranchesModel()->proto().SerializeAsString());
        document.replaceModel(*ModelDocument::load(QString::fromStdString(modelPath)));
    }
    const Graph& graph() const { return document.model()->graph(); }
    NodeId node(const std::string& name) const { return *graph().findNode(name); }
    // The table row whose Node cell reads `label`, or -1.
    int row(const QString& label) const {
        for (int r = 0; r < table.rowCount(); ++r)
            if (table.index(r, PrecisionTableModel::NodeColumn).data().toString() == label) return r;
        return -1;
    }
    QString cell(const QString& label, int column) const { return table.index(row(label), column).data().toString(); }
    const BodyGraph& thenBody() const { return *findBodyGraph(document.bodyGraphs(), kThen); }
    NodeId thenNode(const std::string& name) const { return *thenBody().body.graph.findNode(name); }
    const PrecisionPlan* thenPlan() const { return bodyPlan(document.plan(), kThen); }
    bool setRequested(const QString& label, Precision precision) {
        return table.setData(table.index(row(label), PrecisionTableModel::RequestedColumn),
                             static_cast<int>(precision));
    }
};

QString label(const char* text) {
    return QString::fromUtf8(text);
}

// Makes the row whose Node cell reads `text` the panel's current row, as a click does; false when it is not shown.
bool makeCurrent(PrecisionPanel& panel, const char* text) {
    PrecisionFilterModel* filter = panel.filterModel();
    for (int r = 0; r < filter->rowCount(); ++r) {
        const QModelIndex index = filter->index(r, PrecisionTableModel::NodeColumn);
        if (index.data().toString() != label(text)) continue;
        panel.view()->selectionModel()->setCurrentIndex(
            index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        return true;
    }
    return false;
}

}  // namespace

void BodyRowsTest::bodyRowsFollowTheirParentInOrder() {
    Fixture f;
    QAbstractItemModelTester tester(&f.table, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QStringList names;
    for (int r = 0; r < f.table.rowCount(); ++r)
        names << f.table.index(r, PrecisionTableModel::NodeColumn).data().toString();
    const QStringList expected = {label("stem"),
                                  label("stem.relu"),
                                  label("mean"),
                                  label("gate"),
                                  label("route"),
                                  label("route ▸ then_branch ▸ t1"),
                                  label("route ▸ then_branch ▸ t1.relu"),
                                  label("route ▸ then_branch ▸ t2"),
                                  label("route ▸ else_branch ▸ e1"),
                                  label("route ▸ else_branch ▸ e.add"),
                                  label("refine"),
                                  label("refine ▸ body ▸ l1"),
                                  label("refine ▸ body ▸ l1.relu"),
                                  label("refine ▸ body ▸ l.add"),
                                  label("head")};
    QCOMPARE(names, expected);
    // Main rows keep their place by node; a body row stands for its control-flow node (selecting it selects the If).
    for (const char* name : {"stem", "route", "refine", "head"})
        QCOMPARE(f.table.rowOf(f.node(name)), static_cast<int>(expected.indexOf(label(name))));
    const QModelIndex t1 = f.table.index(f.row(label("route ▸ then_branch ▸ t1")), PrecisionTableModel::NodeColumn);
    QCOMPARE(t1.data(PrecisionTableModel::NodeIdRole).toInt(), f.node("route"));
    QVERIFY(t1.data(PrecisionTableModel::BodyRowRole).toBool());
    QVERIFY(!f.table.index(f.table.rowOf(f.node("route")), 0).data(PrecisionTableModel::BodyRowRole).toBool());
    QCOMPARE(f.cell(label("route ▸ then_branch ▸ t1"), PrecisionTableModel::OpColumn), QStringLiteral("Conv"));
    QVERIFY(!f.cell(label("route ▸ then_branch ▸ t1"), PrecisionTableModel::MacsColumn).isEmpty());  // the body's cost
    // Unplanned bodies run float; the columns measured on the main graph say so.
    QCOMPARE(f.cell(label("route ▸ then_branch ▸ t1"), PrecisionTableModel::RequestedColumn), QStringLiteral("FP32"));
    QCOMPARE(f.table.index(f.row(label("route ▸ then_branch ▸ t1")), PrecisionTableModel::TuneColumn)
                 .data(Qt::ToolTipRole)
                 .toString(),
             QStringLiteral("Measured for the main graph only"));
}

void BodyRowsTest::editingABodyRowPlansTheBodyAndUndoRestores() {
    Fixture f;
    const QString t1 = label("route ▸ then_branch ▸ t1");
    QVERIFY(!f.thenPlan());
    const Precision routeBefore = f.document.plan().requested(f.node("route"));
    QVERIFY(f.setRequested(t1, Precision::Int8));
    QVERIFY(f.thenPlan());
    QCOMPARE(f.thenPlan()->requested(f.thenNode("t1")), Precision::Int8);
    QCOMPARE(f.thenPlan()->requested(f.thenNode("t2")), Precision::Fp32);  // the rest of the new body plan
    QCOMPARE(f.document.plan().requested(f.node("route")), routeBefore);   // not the If itself
    QCOMPARE(f.cell(t1, PrecisionTableModel::RequestedColumn), QStringLiteral("INT8"));
    QCOMPARE(f.document.undoStack()->count(), 1);

    f.document.undoStack()->undo();
    QVERIFY(!f.thenPlan());  // as before the edit: no plan, the body runs float
    QCOMPARE(f.cell(t1, PrecisionTableModel::RequestedColumn), QStringLiteral("FP32"));
    f.document.undoStack()->redo();
    QVERIFY(f.thenPlan());
    QCOMPARE(f.thenPlan()->requested(f.thenNode("t1")), Precision::Int8);
    // Setting it FP32 in a body already planned is an edit; FP32 where it already is, none.
    QVERIFY(f.setRequested(label("route ▸ else_branch ▸ e1"), Precision::Fp32));
    QCOMPARE(f.document.undoStack()->count(), 1);
}

void BodyRowsTest::effectiveAndReasonComeFromTheBodyPlan() {
    Fixture f;
    const QString t1 = label("route ▸ then_branch ▸ t1"), relu = label("route ▸ then_branch ▸ t1.relu");
    QVERIFY(f.setRequested(relu, Precision::Int8));
    const PrecisionPlan* plan = f.thenPlan();
    QVERIFY(plan);
    const NodeId reluId = f.thenNode("t1.relu");
    // Alone in INT8 after an FP32 conv, the relu falls back: the row says so as a main node's would.
    QCOMPARE(plan->effective(reluId), Precision::Fp16);
    QVERIFY(QString::fromStdString(plan->explanation(reluId)).contains(QStringLiteral("fused into 't1'")));
    QVERIFY(f.table.index(f.row(relu), PrecisionTableModel::EffectiveColumn)
                .data(PrecisionTableModel::FallbackRole)
                .toBool());
    QCOMPARE(f.cell(relu, PrecisionTableModel::EffectiveColumn), precisionLabel(plan->effective(reluId)));
    QCOMPARE(f.cell(relu, PrecisionTableModel::ReasonColumn), QString::fromStdString(plan->explanation(reluId)));
    QVERIFY(f.setRequested(t1, Precision::Int8));
    QCOMPARE(f.cell(t1, PrecisionTableModel::EffectiveColumn), QStringLiteral("INT8"));
}

// The If and the Loop are kept FP32 where the plan asks FP16 (no FP16 form: they hold subgraphs); their layers are
// on rows of their own, and the node itself is no fallback to warn about.
void BodyRowsTest::aControlFlowNodeIsNoFallback() {
    Fixture f;
    for (const char* name : {"route", "refine"}) {
        const NodeId node = f.node(name);
        QVERIFY(f.document.plan().requested(node) != f.document.plan().effective(node));
        const QModelIndex effective = f.table.index(f.table.rowOf(node), PrecisionTableModel::EffectiveColumn);
        QVERIFY2(!effective.data(PrecisionTableModel::FallbackRole).toBool(), name);
        QVERIFY(!effective.data(Qt::BackgroundRole).isValid());
    }
}

void BodyRowsTest::int8CountFollowsABodyLayer() {
    Fixture f;
    const int before = f.document.lint().coverage.int8Layers;
    QVERIFY(f.setRequested(label("refine ▸ body ▸ l1"), Precision::Int8));
    QCOMPARE(f.document.lint().coverage.int8Layers, before + 1);
    f.document.undoStack()->undo();
    QCOMPARE(f.document.lint().coverage.int8Layers, before);
}

void BodyRowsTest::selectionEditsSetBodyLayersNotTheirParent() {
    Fixture f;
    PrecisionPanel panel(&f.document);
    QTableView* view = panel.view();
    const auto selectRow = [&](const QString& name) {
        PrecisionFilterModel* filter = panel.filterModel();
        for (int r = 0; r < filter->rowCount(); ++r)
            if (filter->index(r, PrecisionTableModel::NodeColumn).data().toString() == name)
                view->selectionModel()->select(filter->index(r, 0),
                                               QItemSelectionModel::Select | QItemSelectionModel::Rows);
    };
    selectRow(label("route ▸ else_branch ▸ e1"));
    selectRow(label("head"));
    QCOMPARE(panel.selectedNodes(), QList<NodeId>({f.node("head")}));
    QCOMPARE(panel.selectedBodyNodes().size(), 1);
    const Precision routeBefore = f.document.plan().requested(f.node("route"));
    panel.setSelectionPrecision(Precision::Fp16);
    QCOMPARE(f.document.undoStack()->count(), 1);  // one step for both
    QCOMPARE(f.document.plan().requested(f.node("head")), Precision::Fp16);
    const PrecisionPlan* elsePlan = bodyPlan(f.document.plan(), {{"route", "else_branch"}});
    QVERIFY(elsePlan);
    const BodyGraph* elseBody = findBodyGraph(f.document.bodyGraphs(), {{"route", "else_branch"}});
    QCOMPARE(elsePlan->requested(*elseBody->body.graph.findNode("e1")), Precision::Fp16);
    QCOMPARE(f.document.plan().requested(f.node("route")), routeBefore);
    panel.cycleSelectionPrecision();  // FP16 -> INT8, each from its own
    QCOMPARE(bodyPlan(f.document.plan(), {{"route", "else_branch"}})->requested(*elseBody->body.graph.findNode("e1")),
             Precision::Int8);
}

// A body row selects its If in the graph; the graph's echo of that node must leave the table on the body layer (the
// walk saw it jump to the If's row, with "All If nodes" offered).
void BodyRowsTest::theGraphEchoingTheParentKeepsTheBodyRowCurrent() {
    Fixture f;
    PrecisionPanel panel(&f.document);
    QVERIFY(makeCurrent(panel, "route ▸ else_branch ▸ e1"));
    const int e1 = panel.view()->selectionModel()->currentIndex().row();
    panel.selectNode(f.node("route"));
    QCOMPARE(panel.view()->selectionModel()->currentIndex().row(), e1);
    QCOMPARE(panel.selectedBodyNodes().size(), 1);
    panel.selectNode(f.node("head"));  // another node moves it, as before
    QCOMPARE(panel.view()->selectionModel()->currentIndex().data().toString(), label("head"));
}

// A search hit inside a body (or a click on a node of an opened body) selected it in the graph and Node Properties,
// while the table stayed on the row before.
void BodyRowsTest::aLayerFoundInABodyBecomesTheCurrentRow() {
    Fixture f;
    MainWindow window;
    window.show();
    QVERIFY(test::openAndWaitForLayout(window, QString::fromStdString(f.modelPath)));
    auto* panel = window.findChild<PrecisionPanel*>();
    QVERIFY(makeCurrent(*panel, "head"));
    auto* view = window.findChild<GraphView*>();
    QVERIFY(view->findAndCenter(QStringLiteral("t2")));
    QTRY_COMPARE(panel->view()->selectionModel()->currentIndex().data().toString(), label("route ▸ then_branch ▸ t2"));
    QCOMPARE(panel->selectedBodyNodes().size(), 1);
    QCOMPARE(panel->selectedBodyNodes().front().node, f.thenNode("t2"));
    QVERIFY(view->subgraphDepth() > 0);  // the table's selection did not take the graph back out of the body
}

// Node Properties showed the If for a body row (the graph's selection); it shows the body's layer, with the precision
// of the body's plan, and follows an edit of it.
void BodyRowsTest::aBodyRowShowsItsLayerInNodeProperties() {
    Fixture f;
    MainWindow window;
    window.show();
    QVERIFY(test::openAndWaitForLayout(window, QString::fromStdString(f.modelPath)));
    auto* panel = window.findChild<PrecisionPanel*>();
    auto* properties = window.findChild<NodePropertiesPanel*>();
    const QTreeWidget* tree = properties->tree();
    QVERIFY(makeCurrent(*panel, "route ▸ then_branch ▸ t2"));
    QVERIFY(properties->body());
    QCOMPARE(test::rowValue(tree, "Node", "Name"), QStringLiteral("route/then_branch/t2"));
    QCOMPARE(test::rowValue(tree, "Node", "Op"), QStringLiteral("Conv"));
    QCOMPARE(test::rowValue(tree, "Precision", "Requested"), QStringLiteral("FP32"));
    QVERIFY(test::rowValue(tree, "Precision", "Plan").startsWith(QStringLiteral("none yet")));
    QTRY_VERIFY(properties->weightsReady());
    QCOMPARE(properties->weights().size(), size_t{2});  // t2's weight and bias

    panel->setSelectionPrecision(Precision::Int8);
    const ModelDocument* document = window.document();
    const PrecisionPlan* then = bodyPlan(document->plan(), kThen);
    QVERIFY(then);
    const NodeId t2 = *findBodyGraph(document->bodyGraphs(), kThen)->body.graph.findNode("t2");
    QTRY_COMPARE(test::rowValue(tree, "Precision", "Requested"), QStringLiteral("INT8"));
    QCOMPARE(test::rowValue(tree, "Precision", "Effective"), precisionLabel(then->effective(t2)));
    QCOMPARE(test::rowValue(tree, "Precision", "Plan"), QStringLiteral("<no row Plan in Precision>"));

    // A main row shows its node again.
    QVERIFY(makeCurrent(*panel, "head"));
    QVERIFY(!properties->body());
    QCOMPARE(test::rowValue(tree, "Node", "Name"), QStringLiteral("head"));
}

// "All Conv nodes" from a body row sets every Conv of the model, bodies included, in one step; FP32 leaves a body
// without a plan as it is.
void BodyRowsTest::allOfAnOpTypeReachesIntoBodies() {
    Fixture f;
    PrecisionPanel panel(&f.document);
    QVERIFY(makeCurrent(panel, "route ▸ then_branch ▸ t1"));
    QCOMPARE(panel.view()->selectionModel()->currentIndex().data(PrecisionTableModel::OpTypeRole).toString(),
             QStringLiteral("Conv"));
    panel.setCurrentOpTypePrecision(Precision::Fp32);
    QVERIFY(f.document.plan().bodies().empty());

    panel.setCurrentOpTypePrecision(Precision::Int8);
    QCOMPARE(f.document.undoStack()->count(), 2);  // the FP32 edit set the main Convs (their default differs)
    for (const char* name : {"stem", "head"}) QCOMPARE(f.document.plan().requested(f.node(name)), Precision::Int8);
    auto requested = [&](const BodyPath& path, const char* name) {
        const PrecisionPlan* plan = bodyPlan(f.document.plan(), path);
        const BodyGraph* body = findBodyGraph(f.document.bodyGraphs(), path);
        return plan ? plan->requested(*body->body.graph.findNode(name)) : Precision::Fp32;
    };
    const BodyPath elseBranch = {{"route", "else_branch"}}, loop = {{"refine", "body"}};
    QCOMPARE(requested(kThen, "t1"), Precision::Int8);
    QCOMPARE(requested(kThen, "t2"), Precision::Int8);
    QCOMPARE(requested(elseBranch, "e1"), Precision::Int8);
    QCOMPARE(requested(loop, "l1"), Precision::Int8);
    QCOMPARE(requested(elseBranch, "e.add"), Precision::Fp32);  // another op type
    QCOMPARE(requested(loop, "l1.relu"), Precision::Fp32);

    f.document.undoStack()->undo();
    QVERIFY(f.document.plan().bodies().empty());
}

// The analysis measures body layers (AnalysisReport::bodyLayers): their rows show it, worst output per layer, sorted
// as numbers, greyed and said stale once the body's plan changes.
void BodyRowsTest::analysisColumnsShowTheBodyLayersAndGoStale() {
    Fixture f;
    auto report = std::make_shared<AnalysisReport>();
    ErrorMetrics worse, better;
    worse.sqnrDb = 12.3;
    better.sqnrDb = 30.0;
    report->bodyLayers = {{"refine/body/", "l1", "Conv", "l1", Precision::Fp32, worse},
                          {"refine/body/", "l1", "Conv", "l1.extra", Precision::Fp32, better},
                          {"route/then_branch/", "t2", "Conv", "t2", Precision::Fp32, better}};
    f.document.setAnalysis(AnalysisMode::Accumulated, report);
    const QString l1 = label("refine ▸ body ▸ l1");
    QCOMPARE(f.cell(l1, PrecisionTableModel::SqnrColumn), QStringLiteral("12.3 dB"));
    QCOMPARE(f.cell(label("route ▸ then_branch ▸ t2"), PrecisionTableModel::SqnrColumn), QStringLiteral("30.0 dB"));
    QCOMPARE(f.cell(label("route ▸ then_branch ▸ t1"), PrecisionTableModel::SqnrColumn), QString());  // not measured
    QCOMPARE(f.cell(l1, PrecisionTableModel::SensitivityColumn), QString());  // no isolated analysis
    const QModelIndex sqnr = f.table.index(f.row(l1), PrecisionTableModel::SqnrColumn);
    QCOMPARE(sqnr.data(PrecisionTableModel::SortRole).toDouble(), 12.3);
    QVERIFY(!sqnr.data(Qt::ToolTipRole).toString().startsWith(QStringLiteral("Stale")));
    QVERIFY(!sqnr.data(Qt::ForegroundRole).isValid());

    QVERIFY(f.setRequested(l1, Precision::Int8));
    QVERIFY(f.document.isAnalysisStale());
    QVERIFY(sqnr.data(Qt::ToolTipRole).toString().startsWith(QStringLiteral("Stale")));
    QVERIFY(sqnr.data(Qt::ForegroundRole).isValid());
    QCOMPARE(f.cell(l1, PrecisionTableModel::SqnrColumn), QStringLiteral("12.3 dB"));  // kept, greyed
    // The columns the body rows do not measure still say so.
    QCOMPARE(f.table.index(f.row(l1), PrecisionTableModel::TuneColumn).data(Qt::ToolTipRole).toString(),
             QStringLiteral("Measured for the main graph only"));
}

// The Layer Error plot of a model whose layers are in bodies (Silero VAD's are all in an If): the body layers get
// positions after their control-flow node, named by path; a click selects that node.
void BodyRowsTest::layerErrorPlotPlacesBodyLayersAfterTheirNode() {
    Fixture f;
    auto report = std::make_shared<AnalysisReport>();
    ErrorMetrics stem, l1, head;
    stem.sqnrDb = 40.0;
    l1.sqnrDb = 20.0;
    head.sqnrDb = 30.0;
    const Graph& graph = f.graph();
    report->layers = {{f.node("head"), graph.node(f.node("head")).outputs[0], Precision::Int8, head},
                      {f.node("stem"), graph.node(f.node("stem")).outputs[0], Precision::Int8, stem}};
    report->bodyLayers = {{"refine/body/", "l1", "Conv", "l1", Precision::Int8, l1},
                          {"elsewhere/body/", "x", "Conv", "x", Precision::Int8, l1}};  // no such node: left out
    f.document.setAnalysis(AnalysisMode::Accumulated, report);
    LayerErrorPlot plot;
    plot.setDocument(&f.document);
    plot.setSeries(LayerErrorPlot::Series::Accumulated);
    plot.setOrder(LayerErrorPlot::Order::Graph);
    QCOMPARE(plot.positionCount(), 3);
    QCOMPARE(plot.nodeAt(0), f.node("stem"));
    QCOMPARE(plot.nodeAt(1), f.node("refine"));  // the Loop's body layer, after its node in graph order
    QCOMPARE(plot.nodeAt(2), f.node("head"));
    const QString tip = plot.toolTipFor(1);
    QVERIFY2(tip.startsWith(QStringLiteral("refine/body/l1 (Conv), INT8, output l1")), qPrintable(tip));
    QVERIFY(tip.contains(QStringLiteral("SQNR 20.00 dB")));
    plot.setOrder(LayerErrorPlot::Order::WorstFirst);
    QCOMPARE(plot.nodeAt(0), f.node("refine"));
}

void BodyRowsTest::filterMatchesBodyLayerNames() {
    Fixture f;
    PrecisionFilterModel filter;
    filter.setSourceModel(&f.table);
    filter.setFilterText(QStringLiteral("l1"));
    QStringList shown;
    for (int r = 0; r < filter.rowCount(); ++r)
        shown << filter.index(r, PrecisionTableModel::NodeColumn).data().toString();
    QCOMPARE(shown, QStringList({label("refine ▸ body ▸ l1"), label("refine ▸ body ▸ l1.relu")}));
}

void BodyRowsTest::importedPlanKeepsItsBodiesThroughUndo() {
    Fixture f;
    // A plan file with a body, as File > Import > Precision Plan... reads it.
    PrecisionPlan planned = f.document.plan();
    planned.ensureBody("refine", "body", findBodyGraph(f.document.bodyGraphs(), {{"refine", "body"}})->body.graph)
        .setRequested(0, Precision::Int8);
    const std::string planPath = f.dir.file("plan.json");
    QVERIFY(planned.save(f.graph(), planPath).isOk());
    QWidget window;
    ImportController import(&f.document, &window);
    QVERIFY(import.importPlan(QString::fromStdString(planPath)));
    const PrecisionPlan* loop = bodyPlan(f.document.plan(), {{"refine", "body"}});
    QVERIFY(loop);
    QCOMPARE(loop->requested(0), Precision::Int8);
    f.document.undoStack()->undo();
    QVERIFY(!bodyPlan(f.document.plan(), {{"refine", "body"}}));
    f.document.undoStack()->redo();
    QVERIFY(bodyPlan(f.document.plan(), {{"refine", "body"}}));
    QCOMPARE(bodyPlan(f.document.plan(), {{"refine", "body"}})->requested(0), Precision::Int8);
}

void BodyRowsTest::projectRoundTripKeepsBodies() {
    Fixture f;
    QVERIFY(f.setRequested(label("route ▸ then_branch ▸ t2"), Precision::Int8));
    const QString project = QString::fromStdString(f.dir.file("branches.qlproj"));
    QVERIFY(saveProject(f.document, project).isOk());

    ModelDocument reopened;
    const auto loaded = loadProject(project);
    QVERIFY2(loaded->error.isEmpty(), qPrintable(loaded->error));
    reopened.replaceModel(*loaded);
    const PrecisionPlan* then = bodyPlan(reopened.plan(), kThen);
    QVERIFY(then);
    QCOMPARE(then->requested(f.thenNode("t2")), Precision::Int8);
    QCOMPARE(then->requested(f.thenNode("t1")), Precision::Fp32);
    PrecisionTableModel table(&reopened);
    int t2 = -1;
    for (int r = 0; r < table.rowCount(); ++r)
        if (table.index(r, PrecisionTableModel::NodeColumn).data().toString() == label("route ▸ then_branch ▸ t2"))
            t2 = r;
    QVERIFY(t2 >= 0);
    QCOMPARE(table.index(t2, PrecisionTableModel::RequestedColumn).data().toString(), QStringLiteral("INT8"));
}

QTEST_MAIN(BodyRowsTest)
#include "body_rows_test.moc"
