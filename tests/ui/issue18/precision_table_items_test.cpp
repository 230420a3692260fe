// Issue 18, item 9 (the smaller items), the precision table's part: a context menu with the edit commands, P cycles
// the selected rows through the graph's undoable command, names sort naturally ("features.3" before
// "features.11"), nodes without a precision choice (Constant, Shape) are hidden until "All nodes", and a Clip fused
// into a depthwise conv that falls back to FP16 shows FP16 too.
#include <QAbstractItemModelTester>
#include <QApplication>
#include <QMenu>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTimer>
#include <QUndoStack>
#include <QtTest>

#include "tests/support/model_builder.h"
#include "tests/ui/calibration/calibration_test_support.h"
#include "ui/main_window.h"
#include "ui/model_document.h"
#include "ui/panels/precision_filter_model.h"
#include "ui/panels/precision_panel.h"
#include "ui/panels/precision_table_model.h"

using namespace ql;
using ui::PrecisionTableModel;

class PrecisionTableItemsTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void contextMenuHasTheEditCommands();
    void pCyclesTheSelectedRowsAsTheGraphDoes();
    void namesSortNaturally();
    void nodesWithoutAPrecisionChoiceAreHiddenUntilAllNodes();
    void clipFusedIntoAFallenBackDepthwiseConvShowsFp16();
    void macsOfOpenDimensionsAreMarkedApproximate();
};

namespace {

// Loads `builder`'s model into `document` through a file, as File > Open does.
void loadInto(ui::ModelDocument& document, const test::ModelBuilder& builder, const test::TempDir& dir) {
    const std::string path = dir.file("model.onnx");
    builder.save(path);
    const auto loaded = ui::ModelDocument::load(QString::fromStdString(path));
    QVERIFY2(loaded->model, qPrintable(loaded->error));
    document.replaceModel(*loaded);
}

// Four convs named as torchvision names its layers, in graph order features.2, .11, .3, .10; a Constant feeds
// the last one's bias, and a Shape reads the output.
test::ModelBuilder featuresModel() {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {1, 4, 8, 8});
    b.initializer("w", {4, 4, 1, 1}, test::seededFloats(16));
    b.node("Constant", {}, {"bias"}, "features.bias")
        .tensor("value", test::makeTensor("b", DataType::Float, {4}, {0, 1, 2, 3}));
    std::string previous = "x";
    for (const char* name : {"features.2", "features.11", "features.3", "features.10"}) {
        const bool last = std::string(name) == "features.10";
        b.node("Conv", last ? std::vector<std::string>{previous, "w", "bias"} : std::vector<std::string>{previous, "w"},
               {std::string(name) + "_out"}, name);
        previous = std::string(name) + "_out";
    }
    b.node("Shape", {previous}, {"shape"}, "shape");
    b.output(previous);
    b.output("shape", DataType::Int64);
    return b;
}

QStringList shownNames(const ui::PrecisionPanel& panel) {
    QStringList names;
    const QAbstractItemModel* model = panel.view()->model();
    for (int row = 0; row < model->rowCount(); ++row)
        names.append(model->index(row, PrecisionTableModel::NodeColumn).data().toString());
    return names;
}

QAction* actionNamed(QWidget* widget, const QString& text) {
    for (QAction* action : widget->findChildren<QAction*>())
        if (action->text() == text) return action;
    return nullptr;
}

}  // namespace

void PrecisionTableItemsTest::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("QuantLensTest"));
    QCoreApplication::setApplicationName(QStringLiteral("precision_table_items_test"));
}

void PrecisionTableItemsTest::contextMenuHasTheEditCommands() {
    ui::ModelDocument document;
    test::loadSample(document);
    ui::PrecisionPanel panel(&document);
    panel.show();
    const NodeId conv = *document.model()->graph().findNode("/stem/stem.0/Conv");
    panel.selectNode(conv);
    QStringList entries;
    QTimer poll;
    connect(&poll, &QTimer::timeout, [&entries] {
        auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
        if (!menu) return;
        for (QAction* action : menu->actions())
            if (!action->isSeparator()) entries.append(action->text());
        menu->close();
    });
    poll.start(20);
    QTableView* table = panel.view();
    emit table->customContextMenuRequested(table->visualRect(table->currentIndex()).center());
    QTest::qWait(100);
    poll.stop();
    for (const char* entry : {"Set to FP32", "Set to FP16", "Set to INT8", "Cycle precision (FP32, FP16, INT8)"})
        QVERIFY2(entries.contains(QLatin1String(entry)), qPrintable(entries.join(QStringLiteral(" | "))));
    actionNamed(&panel, QStringLiteral("Set to FP16"))->trigger();
    QCOMPARE(document.plan().requested(conv), Precision::Fp16);
}

void PrecisionTableItemsTest::pCyclesTheSelectedRowsAsTheGraphDoes() {
    ui::MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    QSignalSpy opened(&window, &ui::MainWindow::modelOpened);
    window.openModel(test::sampleModelPath());
    QVERIFY(QTest::qWaitFor([&] { return opened.count() > 0; }, 10000));
    ui::ModelDocument* document = window.document();
    auto* panel = window.findChild<ui::PrecisionPanel*>();
    const Graph& graph = document->model()->graph();
    const NodeId first = *graph.findNode("/stem/stem.0/Conv"), second = *graph.findNode("/block/block.0/Conv");
    panel->selectNode(first);
    const QModelIndex row = panel->filterModel()->mapFromSource(panel->tableModel()->index(second, 0));
    panel->view()->selectionModel()->select(row, QItemSelectionModel::Select | QItemSelectionModel::Rows);
    panel->view()->setFocus();
    QTRY_VERIFY(panel->view()->hasFocus());
    const int steps = document->undoStack()->count();
    QTest::keyClick(panel->view(), Qt::Key_P);
    // INT8 -> FP32, both rows, in one step named as the graph's P names it.
    QCOMPARE(document->plan().requested(first), Precision::Fp32);
    QCOMPARE(document->plan().requested(second), Precision::Fp32);
    QCOMPARE(document->undoStack()->count(), steps + 1);
    QCOMPARE(document->undoStack()->text(steps), QStringLiteral("Cycle precision of 2 nodes"));
    QTest::keyClick(panel->view(), Qt::Key_P);
    QCOMPARE(document->plan().requested(first), Precision::Fp16);
}

void PrecisionTableItemsTest::namesSortNaturally() {
    test::TempDir dir;
    ui::ModelDocument document;
    loadInto(document, featuresModel(), dir);
    ui::PrecisionPanel panel(&document);
    QAbstractItemModelTester tester(panel.filterModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    panel.view()->sortByColumn(PrecisionTableModel::NodeColumn, Qt::AscendingOrder);
    QCOMPARE(shownNames(panel), QStringList({"features.2", "features.3", "features.10", "features.11"}));
    panel.view()->sortByColumn(PrecisionTableModel::NodeColumn, Qt::DescendingOrder);
    QCOMPARE(shownNames(panel), QStringList({"features.11", "features.10", "features.3", "features.2"}));
}

void PrecisionTableItemsTest::nodesWithoutAPrecisionChoiceAreHiddenUntilAllNodes() {
    test::TempDir dir;
    ui::ModelDocument document;
    loadInto(document, featuresModel(), dir);
    ui::PrecisionPanel panel(&document);
    QAbstractItemModelTester tester(panel.filterModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QStringList names = shownNames(panel);
    QVERIFY2(!names.contains(QStringLiteral("features.bias")) && !names.contains(QStringLiteral("shape")),
             qPrintable(names.join(QStringLiteral(", "))));
    QCOMPARE(names.size(), 4);
    QAction* all = actionNamed(&panel, QStringLiteral("All nodes"));
    QVERIFY(all && all->isCheckable() && !all->isChecked());
    all->setChecked(true);
    names = shownNames(panel);
    QVERIFY(names.contains(QStringLiteral("features.bias")) && names.contains(QStringLiteral("shape")));
    QCOMPARE(names.size(), 6);
}

// A MobileNet-style block: pointwise conv, then a depthwise conv with 6 channels (no INT8 kernel on TensorRT 10:
// FP16) and its Relu6 (Clip), which TensorRT fuses into the conv.
void PrecisionTableItemsTest::clipFusedIntoAFallenBackDepthwiseConvShowsFp16() {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {1, 16, 8, 8});
    b.initializer("w1", {6, 16, 1, 1}, test::seededFloats(96));
    b.initializer("w2", {6, 1, 3, 3}, test::seededFloats(54));
    b.initializer("lo", {}, {0.0f});
    b.initializer("hi", {}, {6.0f});
    b.node("Conv", {"x", "w1"}, {"c1"}, "pointwise");
    b.node("Clip", {"c1", "lo", "hi"}, {"r1"}, "pointwise_relu6");
    b.node("Conv", {"r1", "w2"}, {"c2"}, "depthwise").i("group", 6).ints("pads", {1, 1, 1, 1});
    b.node("Clip", {"c2", "lo", "hi"}, {"y"}, "depthwise_relu6");
    b.output("y");
    test::TempDir dir;
    ui::ModelDocument document;
    loadInto(document, b, dir);
    PrecisionTableModel model(&document);
    const auto cell = [&](const char* node, int column) {
        return model.index(model.rowOf(*document.model()->graph().findNode(node)), column).data().toString();
    };
    QCOMPARE(cell("depthwise", PrecisionTableModel::EffectiveColumn), QStringLiteral("FP16"));
    QCOMPARE(cell("depthwise_relu6", PrecisionTableModel::RequestedColumn), QStringLiteral("INT8"));
    QCOMPARE(cell("depthwise_relu6", PrecisionTableModel::EffectiveColumn), QStringLiteral("FP16"));
    QVERIFY2(
        cell("depthwise_relu6", PrecisionTableModel::ReasonColumn).contains(QStringLiteral("fused into depthwise")),
        qPrintable(cell("depthwise_relu6", PrecisionTableModel::ReasonColumn)));
    QCOMPARE(cell("pointwise_relu6", PrecisionTableModel::EffectiveColumn), QStringLiteral("INT8"));
}

// A symbolic batch counts as 1 in the MACs: the cell says "≈" and its tool tip why; a fully known layer has neither.
void PrecisionTableItemsTest::macsOfOpenDimensionsAreMarkedApproximate() {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {-1, 4, 8, 8});  // -1: the symbolic batch "N"
    b.input("k", DataType::Float, {1, 4, 8, 8});
    b.initializer("w", {4, 4, 1, 1}, test::seededFloats(16));
    b.node("Conv", {"x", "w"}, {"y"}, "batched");
    b.node("Conv", {"k", "w"}, {"z"}, "fixed");
    b.output("y");
    b.output("z");
    test::TempDir dir;
    ui::ModelDocument document;
    loadInto(document, b, dir);
    PrecisionTableModel table(&document);
    const auto macsCell = [&](const QString& name) {
        for (int row = 0; row < table.rowCount(); ++row)
            if (table.index(row, PrecisionTableModel::NodeColumn).data().toString() == name)
                return table.index(row, PrecisionTableModel::MacsColumn);
        return QModelIndex();
    };
    QCOMPARE(macsCell(QStringLiteral("batched")).data().toString(),
             QStringLiteral("\u2248 ") + QLocale().toString(1024));
    QVERIFY(
        macsCell(QStringLiteral("batched")).data(Qt::ToolTipRole).toString().startsWith(QStringLiteral("Approximate")));
    QCOMPARE(macsCell(QStringLiteral("fixed")).data().toString(), QLocale().toString(1024));
    QVERIFY(
        !macsCell(QStringLiteral("fixed")).data(Qt::ToolTipRole).toString().startsWith(QStringLiteral("Approximate")));
}

QTEST_MAIN(PrecisionTableItemsTest)
#include "precision_table_items_test.moc"
