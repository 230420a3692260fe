// File > Import Engine Report... in the window: the graph coloured by the engine's precision and time with the
// planted mismatches ringed, the Engine and Time columns of the precision table, the engine dock (mismatches and
// slowest layers; a click selects the node), node properties, staleness rules (a plan edit recomputes the
// mismatches, a new model drops the report), dropping the JSON files, and the project round trip.
#include <QAbstractItemModelTester>
#include <QApplication>
#include <QDockWidget>
#include <QDropEvent>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QMimeData>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QUndoStack>
#include <QtTest>
#include <cmath>
#include <nlohmann/json.hpp>

#include "core/engine/engine_coverage.h"
#include "core/engine/planned_precision.h"
#include "tests/ui/calibration/calibration_test_support.h"
#include "tests/ui/engine/engine_test_support.h"
#include "tests/ui/window_test_util.h"
#include "ui/engine/engine_controller.h"
#include "ui/engine/engine_overlay.h"
#include "ui/engine/engine_panel.h"
#include "ui/engine/engine_run.h"
#include "ui/graph/graph_node_item.h"
#include "ui/graph/graph_view.h"
#include "ui/main_window.h"
#include "ui/model_document.h"
#include "ui/panels/node_properties_panel.h"
#include "ui/panels/precision_panel.h"
#include "ui/panels/precision_table_model.h"
#include "ui/project_controller.h"

using namespace ql;

namespace {

constexpr const char* kFp16Conv = "/block/block.3/Conv";   // planted: ran FP16, INT8 planned
constexpr const char* kUnfusedConv = "/down/down.0/Conv";  // planted: its Q stayed an extra reformat
constexpr const char* kStemConv = "/stem/stem.0/Conv";     // ran INT8 as planned

ui::GraphNodeItem* itemOf(ui::MainWindow& window, NodeId node) {
    return window.findChild<ui::GraphView*>()->graphScene()->itemForNode(node);
}

QTreeWidgetItem* childNamed(QTreeWidgetItem* section, const QString& name) {
    for (int i = 0; i < section->childCount(); ++i)
        if (section->child(i)->text(0) == name) return section->child(i);
    return nullptr;
}

bool hasMismatch(const ui::ModelDocument& document, NodeId node) {
    return !document.engineRun()->mismatchesOf(node).empty();
}

}  // namespace

class EngineReportTest : public QObject {
    Q_OBJECT
private slots:
    void importColorsNodesByEnginePrecisionAndRingsMismatches();
    void timeColoringPaintsTheSlowestNodeHottest();
    void precisionTableHasEngineAndTimeColumns();
    void dockListsThePlantedMismatchesAndAClickSelectsTheNode();
    void nodePropertiesShowTheEngineLayer();
    void planEditRecomputesTheMismatches();
    void newModelDropsTheReport();
    void droppedJsonFilesAreImported();
    void badFileLeavesTheDocumentUntouched();
    void projectRoundTripKeepsTheReport();
    void projectWithoutEngineStillLoads();
    void aReportOfAnotherModelIsSaidToBeSo();
    void theWindowCountsTheDifferencesAsTheCliDoes();
};

void EngineReportTest::importColorsNodesByEnginePrecisionAndRingsMismatches() {
    ui::MainWindow window;
    window.show();
    QVERIFY(test::openSampleAndWait(window));
    QVERIFY(test::importEngineAndWait(window));
    QCOMPARE(window.engine()->coloring(), ui::NodeColoring::EnginePrecision);

    ui::GraphNodeItem* fp16 = itemOf(window, test::nodeNamed(window, kFp16Conv));
    ui::GraphNodeItem* stem = itemOf(window, test::nodeNamed(window, kStemConv));
    ui::GraphNodeItem* unfused = itemOf(window, test::nodeNamed(window, kUnfusedConv));
    QVERIFY(fp16 && stem && unfused);
    QCOMPARE(fp16->fill(), ui::enginePrecisionFill(EnginePrecision::Fp16));
    QCOMPARE(stem->fill(), ui::enginePrecisionFill(EnginePrecision::Int8));
    QVERIFY(fp16->mismatch());
    QVERIFY(unfused->mismatch());
    QVERIFY(!stem->mismatch());
    // The outline still shows the plan (INT8), so planned and built are seen together.
    QCOMPARE(fp16->precision(), std::optional<Precision>(Precision::Int8));
    QVERIFY(fp16->toolTip().contains(QStringLiteral("INT8 planned, FP16 ran")));
    const QStringList legend = window.findChild<ui::GraphView*>()->legend()->labels();
    QVERIFY(legend.contains(QStringLiteral("INT8")));
    QVERIFY(legend.contains(QStringLiteral("FP16")));
    QVERIFY(!legend.contains(QStringLiteral("Conv / linear")));  // fills no longer mean op families

    window.engine()->setColoring(ui::NodeColoring::OpFamily);
    QVERIFY(!fp16->mismatch());
    QCOMPARE(fp16->fill(), ui::opFamilyColor(ui::OpFamily::ConvLinear));
    QVERIFY(window.findChild<ui::GraphView*>()->legend()->labels().contains(QStringLiteral("Conv / linear")));
}

void EngineReportTest::timeColoringPaintsTheSlowestNodeHottest() {
    ui::MainWindow window;
    window.show();
    QVERIFY(test::openSampleAndWait(window));
    QVERIFY(test::importEngineAndWait(window));
    window.engine()->setColoring(ui::NodeColoring::EngineTime);
    const auto run = window.document()->engineRun();
    const NodeRun* slowest = nullptr;
    for (const NodeRun& node : run->analysis.nodes)
        if (!slowest || node.timeMs.value_or(0) > slowest->timeMs.value_or(0)) slowest = &node;
    QVERIFY(slowest && slowest->timeMs);
    QCOMPARE(itemOf(window, slowest->node)->fill(), ui::heatColor(1.0));
    const ui::HeatScale scale = ui::heatScaleOf(*run);
    QCOMPARE(scale.slowestMs, *slowest->timeMs);
    const NodeRun* stem = run->run(test::nodeNamed(window, kStemConv));
    QCOMPARE(itemOf(window, stem->node)->fill(), ui::heatColor(scale.fraction(*stem->timeMs)));
    QVERIFY(*stem->timeMs < *slowest->timeMs);
    // Issue 29 item 8: the fixture's times (0.003 to 0.0069 ms) used the top half of a scale of the slowest's
    // share; on the log scale the fastest is cold and the rest spread between.
    bool cold = false;
    for (const NodeRun& node : run->analysis.nodes) cold |= node.timeMs && scale.fraction(*node.timeMs) == 0.0;
    QVERIFY(cold);
    // A heavy-tailed profile (1 us to 1 ms): 10 us sits a third of the way up, not at 1 % of it.
    const ui::HeatScale wide{0.001, 1.0};
    QVERIFY(std::abs(wide.fraction(0.01) - 1.0 / 3.0) < 1e-9);
    QVERIFY(std::abs(wide.msAt(0.5) - std::sqrt(0.001)) < 1e-9);
    // The legend in one unit: a time at each key.
    const QStringList legend = window.findChild<ui::GraphView*>()->legend()->labels();
    QVERIFY2(legend.filter(QStringLiteral(" ms")).size() == 5, qPrintable(legend.join(QStringLiteral(" | "))));
    QVERIFY(legend.filter(QStringLiteral("%")).isEmpty());
    QVERIFY(legend.contains(QStringLiteral("%1 ms").arg(*slowest->timeMs, 0, 'g', 2)));
}

void EngineReportTest::precisionTableHasEngineAndTimeColumns() {
    ui::MainWindow window;
    window.show();
    QVERIFY(test::openSampleAndWait(window));
    ui::PrecisionTableModel* model = window.findChild<ui::PrecisionPanel*>()->tableModel();
    QAbstractItemModelTester tester(model);
    QCOMPARE(model->headerData(ui::PrecisionTableModel::EngineColumn, Qt::Horizontal).toString(),
             QStringLiteral("Engine"));
    QCOMPARE(model->headerData(ui::PrecisionTableModel::TimeColumn, Qt::Horizontal).toString(), QStringLiteral("Time"));
    const int fp16Row = model->rowOf(test::nodeNamed(window, kFp16Conv));
    QVERIFY(model->index(fp16Row, ui::PrecisionTableModel::EngineColumn).data().toString().isEmpty());
    QTableView* table = window.findChild<ui::PrecisionPanel*>()->view();
    QVERIFY(table->isColumnHidden(ui::PrecisionTableModel::EngineColumn));  // no report: no empty columns

    QSignalSpy changed(model, &QAbstractItemModel::dataChanged);
    QVERIFY(test::importEngineAndWait(window));
    QVERIFY(!changed.isEmpty());
    QVERIFY(!table->isColumnHidden(ui::PrecisionTableModel::EngineColumn));
    QVERIFY(!table->isColumnHidden(ui::PrecisionTableModel::TimeColumn));
    // Shown next to the plan's effective precision.
    QCOMPARE(table->horizontalHeader()->visualIndex(ui::PrecisionTableModel::EngineColumn),
             table->horizontalHeader()->visualIndex(ui::PrecisionTableModel::EffectiveColumn) + 1);
    const QModelIndex engine = model->index(fp16Row, ui::PrecisionTableModel::EngineColumn);
    const QModelIndex time = model->index(fp16Row, ui::PrecisionTableModel::TimeColumn);
    QCOMPARE(engine.data().toString(), QStringLiteral("FP16"));
    QVERIFY(engine.data(Qt::BackgroundRole).isValid());  // red: not the plan's INT8
    QVERIFY(time.data().toString().endsWith(QStringLiteral(" ms")));
    QVERIFY(time.data(ui::PrecisionTableModel::SortRole).toDouble() > 0.0);
    const int stemRow = model->rowOf(test::nodeNamed(window, kStemConv));
    QCOMPARE(model->index(stemRow, ui::PrecisionTableModel::EngineColumn).data().toString(), QStringLiteral("INT8"));
    QVERIFY(!model->index(stemRow, ui::PrecisionTableModel::EngineColumn).data(Qt::BackgroundRole).isValid());
}

void EngineReportTest::dockListsThePlantedMismatchesAndAClickSelectsTheNode() {
    ui::MainWindow window;
    window.show();
    QVERIFY(test::openSampleAndWait(window));
    QVERIFY(test::importEngineAndWait(window));
    auto* panel = window.findChild<ui::EnginePanel*>();
    QTreeWidgetItem* mismatches = panel->sectionItem(ui::EnginePanel::MismatchSection);
    QTreeWidgetItem* fp16 = childNamed(mismatches, QString::fromLatin1(kFp16Conv));
    QTreeWidgetItem* unfused = childNamed(mismatches, QString::fromLatin1(kUnfusedConv));
    QVERIFY(fp16 && unfused);
    QCOMPARE(fp16->text(1), QStringLiteral("INT8 → FP16"));
    QVERIFY(fp16->text(2).startsWith(QStringLiteral("INT8 planned, FP16 ran")));
    QCOMPARE(unfused->text(1), QStringLiteral("extra reformat"));
    QVERIFY(unfused->text(2).contains(QStringLiteral("Q/DQ not fused")));
    QTreeWidgetItem* slowest = panel->sectionItem(ui::EnginePanel::SlowestSection);
    QVERIFY(slowest->childCount() > 0);
    QVERIFY(slowest->child(0)->text(2).contains(QStringLiteral(" ms")));
    QVERIFY(panel->summary()->text().contains(QStringLiteral("INT8")));

    auto* view = window.findChild<ui::GraphView*>();
    QSignalSpy selected(view, &ui::GraphView::nodeSelected);
    QTreeWidget* tree = panel->tree();
    tree->scrollToItem(fp16);
    QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualItemRect(fp16).center());
    const NodeId fp16Node = test::nodeNamed(window, kFp16Conv);
    QVERIFY(QTest::qWaitFor([&] { return view->selectedNodes().contains(fp16Node); }, 5000));
    QVERIFY(!selected.isEmpty());
    QCOMPARE(selected.last().first().toInt(), fp16Node);
    // A slowest layer selects a node of it (a second click, not a double click).
    QTest::qWait(QApplication::doubleClickInterval() + 50);
    tree->scrollToItem(slowest->child(0));
    QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualItemRect(slowest->child(0)).center());
    const NodeId layerNode = slowest->child(0)->data(0, ui::EnginePanel::kNodeRole).toInt();
    QVERIFY(layerNode != kNoId);
    QVERIFY(QTest::qWaitFor([&] { return view->selectedNodes().contains(layerNode); }, 5000));

    // Docked narrow, the precisions and times are whole: the names give way (the names had a fixed 260 pixels and
    // a 400-pixel dock cut the times to "0.00").
    auto* dock = window.findChild<QDockWidget*>(QStringLiteral("EngineDock"));
    QVERIFY(dock);
    dock->setFloating(true);
    dock->resize(400, 400);
    QVERIFY(QTest::qWaitFor([&] { return tree->viewport()->width() < 400; }, 2000));
    const QFontMetrics metrics(tree->font());
    for (const QTreeWidgetItem* item : {fp16, unfused})
        QVERIFY2(tree->columnWidth(1) > metrics.horizontalAdvance(item->text(1)), qPrintable(item->text(1)));
    const int time = metrics.horizontalAdvance(slowest->child(0)->text(2));
    QVERIFY2(tree->header()->sectionSize(2) >= time,
             qPrintable(QStringLiteral("%1 < %2").arg(tree->header()->sectionSize(2)).arg(time)));
    QVERIFY(tree->columnWidth(0) + tree->columnWidth(1) + tree->header()->sectionSize(2) <=
            tree->viewport()->width() + 1);
}

void EngineReportTest::nodePropertiesShowTheEngineLayer() {
    ui::MainWindow window;
    window.show();
    QVERIFY(test::openSampleAndWait(window));
    QVERIFY(test::importEngineAndWait(window));
    auto* properties = window.findChild<ui::NodePropertiesPanel*>();
    properties->showNode(test::nodeNamed(window, kFp16Conv));
    const QList<QTreeWidgetItem*> sections =
        properties->tree()->findItems(QStringLiteral("TensorRT engine"), Qt::MatchExactly);
    QCOMPARE(sections.size(), 1);
    QStringList rows;
    for (int i = 0; i < sections.first()->childCount(); ++i)
        rows << sections.first()->child(i)->text(0) + QStringLiteral(": ") + sections.first()->child(i)->text(1);
    QVERIFY2(rows.contains(QStringLiteral("Precision: FP16")), qPrintable(rows.join('\n')));
    QVERIFY(rows.filter(QStringLiteral("Layer: ")).first().contains(QString::fromLatin1(kFp16Conv)));
    QVERIFY(!rows.filter(QStringLiteral("Differs from plan: INT8 planned, FP16 ran")).isEmpty());
}

void EngineReportTest::planEditRecomputesTheMismatches() {
    ui::MainWindow window;
    window.show();
    QVERIFY(test::openSampleAndWait(window));
    QVERIFY(test::importEngineAndWait(window));
    ui::ModelDocument* document = window.document();
    const NodeId conv = test::nodeNamed(window, kFp16Conv);
    QVERIFY(hasMismatch(*document, conv));
    QSignalSpy engineChanged(document, &ui::ModelDocument::engineChanged);
    document->setRequestedPrecision({conv}, Precision::Fp16);  // now the plan says what the engine did
    QVERIFY(!engineChanged.isEmpty());
    QVERIFY(!hasMismatch(*document, conv));
    QVERIFY(!itemOf(window, conv)->mismatch());
    QVERIFY(!childNamed(window.findChild<ui::EnginePanel*>()->sectionItem(ui::EnginePanel::MismatchSection),
                        QString::fromLatin1(kFp16Conv)));
    document->undoStack()->undo();
    QVERIFY(hasMismatch(*document, conv));
    QVERIFY(itemOf(window, conv)->mismatch());
}

void EngineReportTest::newModelDropsTheReport() {
    ui::MainWindow window;
    window.show();
    QVERIFY(test::openSampleAndWait(window));
    QVERIFY(test::importEngineAndWait(window));
    window.document()->markSaved();  // no unsaved-changes prompt
    QVERIFY(test::openSampleAndWait(window));
    QVERIFY(!window.document()->engineRun());
    ui::PrecisionTableModel* model = window.findChild<ui::PrecisionPanel*>()->tableModel();
    const int row = model->rowOf(test::nodeNamed(window, kFp16Conv));
    QVERIFY(model->index(row, ui::PrecisionTableModel::EngineColumn).data().toString().isEmpty());
    QVERIFY(!itemOf(window, test::nodeNamed(window, kFp16Conv))->mismatch());
    QCOMPARE(window.findChild<ui::EnginePanel*>()->tree()->topLevelItemCount(), 0);
}

void EngineReportTest::droppedJsonFilesAreImported() {
    ui::MainWindow window;
    window.show();
    QVERIFY(test::openSampleAndWait(window));
    QMimeData mime;
    // The profile first: the files are told apart by content, not order or name.
    const QStringList files = test::engineFixtureReport();
    mime.setUrls({QUrl::fromLocalFile(files[1]), QUrl::fromLocalFile(files[0])});
    QSignalSpy finished(window.engine(), &ui::EngineController::importFinished);
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    static_cast<QObject*>(&window)->event(&drop);
    QVERIFY(QTest::qWaitFor([&] { return !finished.isEmpty(); }, 30000));
    QVERIFY(finished.first().first().toBool());
    const auto run = window.document()->engineRun();
    QVERIFY(run);
    QCOMPARE(run->layersPath, files[0]);
    QCOMPARE(run->profilePath, files[1]);
    QVERIFY(run->report->hasProfile());
}

void EngineReportTest::badFileLeavesTheDocumentUntouched() {
    ui::MainWindow window;
    window.show();
    QVERIFY(test::openSampleAndWait(window));
    QVERIFY(test::importEngineAndWait(window));
    const auto before = window.document()->engineRun();
    QTemporaryDir dir;
    const QString bad = dir.filePath(QStringLiteral("cut.layers.json"));
    QFile file(bad);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("{\"Layers\": [{\"Name\": \"a\"");
    file.close();
    QSignalSpy finished(window.engine(), &ui::EngineController::importFinished);
    QVERIFY(window.engine()->importFiles({bad}));
    QVERIFY(QTest::qWaitFor([&] { return !finished.isEmpty(); }, 30000));
    QVERIFY(!finished.first().first().toBool());
    QVERIFY(finished.first().at(1).toString().contains(QStringLiteral("truncated")));
    QCOMPARE(window.document()->engineRun(), before);
}

void EngineReportTest::projectRoundTripKeepsTheReport() {
    QTemporaryDir dir;
    const QString project = dir.filePath(QStringLiteral("digits.qlproj"));
    size_t mismatches = 0;
    {
        ui::MainWindow window;
        window.show();
        QVERIFY(test::openSampleAndWait(window));
        QVERIFY(test::importEngineAndWait(window));
        QVERIFY(window.document()->isModified());  // the report is part of the work to save
        mismatches = window.document()->engineRun()->analysis.mismatches.size();
        QVERIFY(window.project()->saveProjectAs(project));
    }
    ui::MainWindow window;
    window.show();
    QSignalSpy opened(&window, &ui::MainWindow::modelOpened);
    window.openModel(project);
    QVERIFY(QTest::qWaitFor([&] { return !opened.isEmpty(); }, 30000));
    const auto run = window.document()->engineRun();
    QVERIFY(run);
    QCOMPARE(run->layersPath, test::engineFixtureReport()[0]);
    QCOMPARE(run->profilePath, test::engineFixtureReport()[1]);
    QCOMPARE(run->analysis.mismatches.size(), mismatches);
    QVERIFY(hasMismatch(*window.document(), test::nodeNamed(window, kFp16Conv)));
    QVERIFY(!window.document()->isModified());
}

void EngineReportTest::projectWithoutEngineStillLoads() {
    QTemporaryDir dir;
    const QString project = dir.filePath(QStringLiteral("old.qlproj"));
    {
        ui::MainWindow window;
        window.show();
        QVERIFY(test::openSampleAndWait(window));
        QVERIFY(window.project()->saveProjectAs(project));
    }
    QFile file(project);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const nlohmann::json saved = nlohmann::json::parse(file.readAll().toStdString());
    file.close();
    QVERIFY(!saved.contains("engine"));  // a project from before engine reports looks the same
    ui::MainWindow window;
    window.show();
    QSignalSpy opened(&window, &ui::MainWindow::modelOpened);
    window.openModel(project);
    QVERIFY(QTest::qWaitFor([&] { return !opened.isEmpty(); }, 30000));
    QVERIFY(window.document()->model());
    QVERIFY(!window.document()->engineRun());
}

// The sample's engine report read against another model: nothing maps, and the dock and the status bar say the
// report is probably of another model instead of "0 differences from the plan".
void EngineReportTest::aReportOfAnotherModelIsSaidToBeSo() {
    ui::MainWindow window;
    window.show();
    QVERIFY(test::openAndWait(window, QStringLiteral(QL_TEST_DATA_DIR "/tune/spiky_cnn.onnx")));
    QSignalSpy status(window.engine(), &ui::EngineController::statusMessage);
    QVERIFY(test::importEngineAndWait(window));
    const auto run = window.document()->engineRun();
    QVERIFY(run);
    QVERIFY(run->coverage.likelyOtherModel());
    QVERIFY(!status.isEmpty());
    QVERIFY2(status.last().first().toString().contains(QStringLiteral("probably of another model")),
             qPrintable(status.last().first().toString()));
    auto* panel = window.findChild<ui::EnginePanel*>();
    QVERIFY2(panel->summary()->text().contains(QStringLiteral("probably of another model")),
             qPrintable(panel->summary()->text()));
    QVERIFY(panel->summary()->text().contains(QStringLiteral("; mapped ")));  // the shares, below the warning
}

// The window and `quantlens-cli engine` on the same model and report: the same differences (issue 27 saw 4 and 9).
void EngineReportTest::theWindowCountsTheDifferencesAsTheCliDoes() {
    ui::MainWindow window;
    window.show();
    QVERIFY(test::openSampleAndWait(window));
    QVERIFY(test::importEngineAndWait(window));
    const auto run = window.document()->engineRun();
    QVERIFY(run);
    QVERIFY(!run->coverage.likelyOtherModel());
    const Graph& graph = window.document()->model()->graph();
    // What the CLI computes for `engine MODEL --layers L` (engine_command.cpp), the target being the window's.
    const auto planned = plannedPrecisions(graph, test::sampleModelPath().toStdString(), "", TrtVersion::Trt10);
    QVERIFY(planned.isOk());
    const EngineMapping mapping = mapEngineToModel(*run->report, &graph);
    const EngineAnalysis cli = analyzeEngine(*run->report, mapping, &graph, &*planned);
    const PlanDifferences inWindow = countPlanDifferences(run->analysis.mismatches);
    const PlanDifferences inCli = countPlanDifferences(cli.mismatches);
    QCOMPARE(inWindow.precision, inCli.precision);
    QCOMPARE(inWindow.reformat, inCli.reformat);
    QCOMPARE(inWindow.total(), size_t{4});
}

QTEST_MAIN(EngineReportTest)
#include "engine_report_test.moc"
