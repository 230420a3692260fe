// The precision table and its edits: a table edit changes the plan and the node's outline and undo restores
// both; edits refresh the cells in place; the op-type and selection edits are one undo step each; the graph's
// shortcuts edit the selection; a TensorRT downgrade shows its reason; numbers sort as numbers, names naturally; the
// filters.
#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTableView>
#include <QUndoStack>
#include <QtTest>
#include <cmath>

#include "tests/support/model_builder.h"
#include "tests/support/model_zoo.h"
#include "tests/ui/panels/panel_test_util.h"
#include "ui/graph/graph_node_item.h"
#include "ui/graph/graph_view.h"
#include "ui/main_window.h"
#include "ui/model_document.h"
#include "ui/panels/precision_filter_model.h"
#include "ui/panels/precision_panel.h"
#include "ui/panels/precision_table_model.h"

using namespace ql;
using namespace ql::ui;

class PrecisionTableTest : public QObject {
    Q_OBJECT
private slots:
    void tableEditChangesPlanAndOutlineAndUndoRestores();
    void opTypeEditSetsEveryNodeOfThatType();
    void selectionEditIsOneUndoStep();
    void graphShortcutsEditTheSelection();
    void graphSelectionSelectsTheRowAndBack();
    void downgradeShowsTheReason();
    void aWeightsIdentityIsNoLayer();
    void analysisFillsSensitivityAndSqnrInPlace();
    void aReplacedModelIsShownByOneResetWithItsAnalysis();
    void numbersSortAsNumbers();
    void namesCompareNaturally();
    void filterMatchesNameAndOp();
};

namespace {

struct Fixture {
    MainWindow window;
    PrecisionPanel* panel = nullptr;
    GraphView* view = nullptr;
    ModelDocument* document = nullptr;

    bool open() {
        window.show();
        if (!test::openAndWaitForLayout(window, test::sampleModelPath())) return false;
        panel = window.findChild<PrecisionPanel*>();
        view = window.findChild<GraphView*>();
        document = window.document();
        return panel && view;
    }
    NodeId node(const std::string& name) const { return *document->model()->graph().findNode(name); }
    std::optional<Precision> outline(NodeId node) const {
        const GraphNodeItem* item = view->graphScene()->itemForNode(node);
        return item ? item->precision() : std::nullopt;
    }
    QModelIndex proxyIndex(NodeId node, int column) const {
        return panel->filterModel()->mapFromSource(panel->tableModel()->index(node, column));
    }
};

}  // namespace

void PrecisionTableTest::tableEditChangesPlanAndOutlineAndUndoRestores() {
    Fixture f;
    QVERIFY(f.open());
    QAbstractItemModelTester tester(f.panel->tableModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester proxyTester(f.panel->filterModel(),
                                         QAbstractItemModelTester::FailureReportingMode::QtTest);
    const NodeId relu = f.node("/stem/stem.2/Relu");
    const Precision before = f.document->plan().requested(relu);
    QCOMPARE(before, Precision::Int8);  // the default placement fuses it into the INT8 conv
    QCOMPARE(f.outline(relu), std::optional<Precision>(Precision::Int8));

    f.panel->selectNode(relu);
    QSignalSpy reset(f.panel->tableModel(), &QAbstractItemModel::modelReset);
    QSignalSpy changed(f.panel->tableModel(), &QAbstractItemModel::dataChanged);
    const QModelIndex cell = f.proxyIndex(relu, PrecisionTableModel::RequestedColumn);
    QVERIFY(cell.flags() & Qt::ItemIsEditable);
    QVERIFY(f.panel->filterModel()->setData(cell, QStringLiteral("FP16")));

    QCOMPARE(f.document->plan().requested(relu), Precision::Fp16);
    QCOMPARE(f.document->plan().effective(relu), Precision::Fp16);
    QCOMPARE(f.outline(relu), std::optional<Precision>(Precision::Fp16));
    QCOMPARE(cell.data().toString(), QStringLiteral("FP16"));
    QCOMPARE(reset.count(), 0);  // in place: the selection and scroll position stay
    QVERIFY(changed.count() >= 1);
    QCOMPARE(f.panel->currentNode(), relu);

    f.document->undoStack()->undo();
    QCOMPARE(f.document->plan().requested(relu), before);
    QCOMPARE(f.outline(relu), std::optional<Precision>(before));
    QCOMPARE(f.proxyIndex(relu, PrecisionTableModel::RequestedColumn).data().toString(), QStringLiteral("INT8"));
    f.document->undoStack()->redo();
    QCOMPARE(f.outline(relu), std::optional<Precision>(Precision::Fp16));

    QVERIFY(!f.panel->filterModel()->setData(cell, QStringLiteral("int4")));  // not a precision
    QVERIFY(!f.panel->filterModel()->setData(f.proxyIndex(relu, PrecisionTableModel::EffectiveColumn),
                                             QStringLiteral("FP32")));  // not editable
}

void PrecisionTableTest::opTypeEditSetsEveryNodeOfThatType() {
    Fixture f;
    QVERIFY(f.open());
    const Graph& graph = f.document->model()->graph();
    f.panel->selectNode(f.node("/block/block.3/Conv"));
    const int steps = f.document->undoStack()->count();
    f.panel->setCurrentOpTypePrecision(Precision::Fp16);
    QCOMPARE(f.document->undoStack()->count(), steps + 1);
    int convs = 0;
    for (const Node& node : graph.nodes()) {
        if (node.opType != "Conv") {
            QVERIFY(f.document->plan().requested(node.id) != Precision::Fp16);
            continue;
        }
        ++convs;
        QCOMPARE(f.document->plan().requested(node.id), Precision::Fp16);
        QCOMPARE(f.outline(node.id), std::optional<Precision>(Precision::Fp16));
    }
    QCOMPARE(convs, 5);
    f.document->undoStack()->undo();
    for (const Node& node : graph.nodes())
        if (node.opType == "Conv") QCOMPARE(f.document->plan().requested(node.id), Precision::Int8);
}

void PrecisionTableTest::selectionEditIsOneUndoStep() {
    Fixture f;
    QVERIFY(f.open());
    QItemSelectionModel* selection = f.panel->view()->selectionModel();
    const NodeId a = f.node("/Add"), b = f.node("/head/Gemm"), c = f.node("/Flatten");
    for (NodeId node : {a, b, c})
        selection->select(f.proxyIndex(node, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
    QCOMPARE(f.panel->selectedNodes(), (QList<NodeId>{a, c, b}));  // row (graph) order
    const int steps = f.document->undoStack()->count();
    f.panel->setSelectionPrecision(Precision::Fp32);
    QCOMPARE(f.document->undoStack()->count(), steps + 1);
    for (NodeId node : {a, b, c}) QCOMPARE(f.document->plan().requested(node), Precision::Fp32);
    f.document->undoStack()->undo();
    QCOMPARE(f.document->plan().requested(b), Precision::Int8);
}

void PrecisionTableTest::graphShortcutsEditTheSelection() {
    Fixture f;
    QVERIFY(f.open());
    const NodeId gemm = f.node("/head/Gemm");
    f.view->selectNode(gemm);
    f.view->setFocus();
    QCOMPARE(f.view->selectedNodes(), QList<NodeId>{gemm});
    QCOMPARE(f.document->plan().requested(gemm), Precision::Int8);
    QTest::keyClick(f.view, Qt::Key_P);  // INT8 -> FP32
    QCOMPARE(f.document->plan().requested(gemm), Precision::Fp32);
    QCOMPARE(f.outline(gemm), std::optional<Precision>(Precision::Fp32));
    QTest::keyClick(f.view, Qt::Key_P);  // FP32 -> FP16
    QCOMPARE(f.document->plan().requested(gemm), Precision::Fp16);
    QTest::keyClick(f.view, Qt::Key_3, Qt::ControlModifier);
    QCOMPARE(f.document->plan().requested(gemm), Precision::Int8);
    QTest::keyClick(f.view, Qt::Key_1, Qt::ControlModifier);
    QCOMPARE(f.document->plan().requested(gemm), Precision::Fp32);
    QCOMPARE(f.proxyIndex(gemm, PrecisionTableModel::EffectiveColumn).data().toString(), QStringLiteral("FP32"));
    f.document->undoStack()->undo();
    QCOMPARE(f.document->plan().requested(gemm), Precision::Int8);
}

void PrecisionTableTest::graphSelectionSelectsTheRowAndBack() {
    Fixture f;
    QVERIFY(f.open());
    const NodeId pool = f.node("/GlobalAveragePool");
    f.view->selectNode(pool);
    QCOMPARE(f.panel->currentNode(), pool);
    QCOMPARE(f.panel->selectedNodes(), QList<NodeId>{pool});

    const NodeId add = f.node("/Add");
    QSignalSpy selected(f.panel, &PrecisionPanel::nodeSelected);
    f.panel->view()->selectionModel()->setCurrentIndex(f.proxyIndex(add, 0),
                                                       QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    QCOMPARE(selected.count(), 1);
    QCOMPARE(f.view->selectedNodes(), QList<NodeId>{add});
}

void PrecisionTableTest::downgradeShowsTheReason() {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {1, 16});
    b.initializer("w", {16, 10}, test::seededFloats(160));
    b.node("MatMul", {"x", "w"}, {"y"}, "fc");
    b.node("Softmax", {"y"}, {"p"}, "softmax").i("axis", 1);
    b.output("p");
    ModelDocument document;
    document.replaceModel(std::shared_ptr<Model>(b.load()));
    PrecisionTableModel model(&document);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    PrecisionFilterModel fallbacks;
    fallbacks.setSourceModel(&model);
    fallbacks.setOnlyFallbacks(true);
    QCOMPARE(fallbacks.rowCount(), 0);

    const NodeId softmax = *document.model()->graph().findNode("softmax");
    QVERIFY(
        model.setData(model.index(softmax, PrecisionTableModel::RequestedColumn), static_cast<int>(Precision::Int8)));
    QCOMPARE(document.plan().requested(softmax), Precision::Int8);
    QVERIFY(document.plan().effective(softmax) != Precision::Int8);
    const QModelIndex effective = model.index(softmax, PrecisionTableModel::EffectiveColumn);
    QVERIFY(effective.data(PrecisionTableModel::FallbackRole).toBool());
    QVERIFY(effective.data(Qt::BackgroundRole).isValid());
    QVERIFY(!effective.data(Qt::DecorationRole).isNull());
    const QString reason = model.index(softmax, PrecisionTableModel::ReasonColumn).data().toString();
    QVERIFY2(reason.contains(QStringLiteral("trt-softmax-norm-int8")), qPrintable(reason));
    QVERIFY(effective.data(Qt::ToolTipRole).toString().contains(reason));
    QCOMPARE(fallbacks.rowCount(), 1);
    QCOMPARE(fallbacks.index(0, 0).data().toString(), QStringLiteral("softmax"));

    document.undoStack()->undo();
    QVERIFY(!effective.data(PrecisionTableModel::FallbackRole).toBool());
    QCOMPARE(fallbacks.rowCount(), 0);
}

// PyTorch writes an Identity per shared weight (DenseNet-121: 120 of them, first in the table): computed from a
// constant, the export folds it into a float32 initializer. It is a weight, not a layer: no warning that it "falls
// back" from FP16 to FP32, and no row unless all nodes are shown.
void PrecisionTableTest::aWeightsIdentityIsNoLayer() {
    ModelDocument document;
    document.replaceModel(std::shared_ptr<Model>(test::sharedWeightModel("fc")));
    PrecisionTableModel model(&document);
    const NodeId identity = *document.model()->graph().findNode("Identity_0");
    QVERIFY(document.plan().effective(identity) != document.plan().requested(identity));  // FP16 asked, FP32 runs
    const QModelIndex effective = model.index(model.rowOf(identity), PrecisionTableModel::EffectiveColumn);
    QVERIFY(!effective.data(PrecisionTableModel::FallbackRole).toBool());
    QVERIFY(!effective.data(PrecisionTableModel::PrecisionChoiceRole).toBool());
    PrecisionFilterModel shown;
    shown.setSourceModel(&model);
    QStringList names;
    for (int r = 0; r < shown.rowCount(); ++r) names << shown.index(r, 0).data().toString();
    QCOMPARE(names, (QStringList{QStringLiteral("fc"), QStringLiteral("relu")}));
}

void PrecisionTableTest::analysisFillsSensitivityAndSqnrInPlace() {
    Fixture f;
    QVERIFY(f.open());
    const Graph& graph = f.document->model()->graph();
    const NodeId conv = f.node("/mix/mix.0/Conv");
    const NodeId relu = f.node("/mix/mix.2/Relu");
    auto isolated = std::make_shared<AnalysisReport>();
    isolated->mode = AnalysisMode::Isolated;
    LayerError e;
    e.node = conv;
    e.output = graph.node(conv).outputs[0];
    e.metrics.sqnrDb = 31.24;
    isolated->layers.push_back(e);
    auto accumulated = std::make_shared<AnalysisReport>(*isolated);
    accumulated->mode = AnalysisMode::Accumulated;
    accumulated->layers[0].metrics.sqnrDb = 18.5;
    e.node = relu;
    e.metrics.sqnrDb = std::numeric_limits<double>::infinity();
    accumulated->layers.push_back(e);

    QSignalSpy reset(f.panel->tableModel(), &QAbstractItemModel::modelReset);
    f.document->setAnalysis(AnalysisMode::Isolated, isolated);
    f.document->setAnalysis(AnalysisMode::Accumulated, accumulated);
    QCOMPARE(reset.count(), 0);
    PrecisionTableModel* model = f.panel->tableModel();
    QCOMPARE(model->index(conv, PrecisionTableModel::SensitivityColumn).data().toString(), QStringLiteral("31.2 dB"));
    QCOMPARE(model->index(conv, PrecisionTableModel::SqnrColumn).data().toString(), QStringLiteral("18.5 dB"));
    QCOMPARE(model->index(relu, PrecisionTableModel::SqnrColumn).data().toString(), QStringLiteral("exact"));
    QVERIFY(model->index(relu, PrecisionTableModel::SensitivityColumn).data().toString().isEmpty());
    QVERIFY(std::isnan(
        model->index(relu, PrecisionTableModel::SensitivityColumn).data(PrecisionTableModel::SortRole).toDouble()));
}

// Replacing the model announces plan, lint, analysis, tune report, engine and prediction one after another; each
// re-filtered and re-sorted every row (50 ms at 100k nodes). The reset alone shows them all, the project's analysis
// included, in the user's sort order.
void PrecisionTableTest::aReplacedModelIsShownByOneResetWithItsAnalysis() {
    Fixture f;
    QVERIFY(f.open());
    auto loaded = ModelDocument::load(test::sampleModelPath());
    QVERIFY(loaded->model);
    const Graph& graph = loaded->model->graph();
    const NodeId conv = *graph.findNode("/mix/mix.0/Conv");
    const NodeId relu = *graph.findNode("/mix/mix.2/Relu");
    auto accumulated = std::make_shared<AnalysisReport>();
    accumulated->mode = AnalysisMode::Accumulated;
    for (const auto& [node, sqnr] : {std::pair{conv, 18.5}, std::pair{relu, 40.0}}) {
        LayerError e;
        e.node = node;
        e.output = graph.node(node).outputs[0];
        e.metrics.sqnrDb = sqnr;
        accumulated->layers.push_back(e);
    }
    loaded->accumulated = accumulated;
    PrecisionFilterModel* proxy = f.panel->filterModel();
    proxy->sort(PrecisionTableModel::SqnrColumn, Qt::DescendingOrder);
    QSignalSpy reset(f.panel->tableModel(), &QAbstractItemModel::modelReset);
    QSignalSpy changed(f.panel->tableModel(), &QAbstractItemModel::dataChanged);
    f.document->replaceModel(*loaded);
    QCOMPARE(reset.count(), 1);
    QCOMPARE(changed.count(), 0);
    QCOMPARE(f.panel->tableModel()->index(conv, PrecisionTableModel::SqnrColumn).data().toString(),
             QStringLiteral("18.5 dB"));
    QVERIFY(f.proxyIndex(relu, 0).row() < f.proxyIndex(conv, 0).row());  // 40 dB above 18.5 dB, not graph order
}

// Digit runs compare as numbers, the rest case-insensitively, without a locale.
void PrecisionTableTest::namesCompareNaturally() {
    QVERIFY(naturalCompare(u"features.3", u"features.11") < 0);
    QVERIFY(naturalCompare(u"layer10/Conv", u"layer9/Conv") > 0);
    QVERIFY(naturalCompare(u"Conv_007", u"conv_7") == 0);  // the same number, any case
    QVERIFY(naturalCompare(u"features.1", u"features.1.conv") < 0);
    QVERIFY(naturalCompare(u"b", u"A") > 0);
    QVERIFY(naturalCompare(u"", u"a") < 0);
}

void PrecisionTableTest::numbersSortAsNumbers() {
    Fixture f;
    QVERIFY(f.open());
    PrecisionFilterModel* proxy = f.panel->filterModel();
    proxy->sort(PrecisionTableModel::MacsColumn, Qt::AscendingOrder);
    double previous = -1;
    bool sawWideNumber = false;
    for (int row = 0; row < proxy->rowCount(); ++row) {
        const double macs =
            proxy->index(row, PrecisionTableModel::MacsColumn).data(PrecisionTableModel::SortRole).toDouble();
        QVERIFY2(macs >= previous, "ascending by value, not by text");
        sawWideNumber = sawWideNumber || macs >= 100000;
        previous = macs;
    }
    QVERIFY(sawWideNumber);  // in text order "100,000" would come before "9,216"
    proxy->sort(PrecisionTableModel::MacsColumn, Qt::DescendingOrder);
    QCOMPARE(proxy->index(0, PrecisionTableModel::MacsColumn).data(PrecisionTableModel::SortRole).toDouble(), previous);
    proxy->sort(-1);
    QCOMPARE(proxy->index(0, 0).data(PrecisionTableModel::NodeIdRole).toInt(), 0);  // graph order again
}

void PrecisionTableTest::filterMatchesNameAndOp() {
    Fixture f;
    QVERIFY(f.open());
    PrecisionFilterModel* proxy = f.panel->filterModel();
    proxy->setFilterText(QStringLiteral("relu"));
    QCOMPARE(proxy->rowCount(), 5);
    proxy->setFilterText(QStringLiteral("/down/"));
    QCOMPARE(proxy->rowCount(), 2);
    proxy->setFilterText(QStringLiteral("gemm"));
    QCOMPARE(proxy->rowCount(), 1);
    proxy->setFilterText(QString());
    QCOMPARE(proxy->rowCount(), f.panel->tableModel()->rowCount());
    proxy->setOnlyFallbacks(true);
    QCOMPARE(proxy->rowCount(), 0);  // the sample has no fallback by default
}

QTEST_MAIN(PrecisionTableTest)
#include "precision_table_test.moc"
