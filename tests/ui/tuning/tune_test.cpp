// Quantize > Tune... on the sample: a run reports progress, shows the steps (plot: kept and rejected points, the
// target line; table) and the summary, and leaves the plan alone until Apply, which is one undo step carrying
// precisions and tensor methods; Cancel changes nothing; the precision table shows each layer's remedy and sorts
// by the tune's sensitivity, and Ctrl+2 keeps the top rows in FP16 in one step.
#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QUndoStack>
#include <QtTest>

#include "tests/support/model_builder.h"
#include "tests/ui/calibration/calibration_test_support.h"
#include "ui/main_window.h"
#include "ui/model_document.h"
#include "ui/panels/precision_filter_model.h"
#include "ui/panels/precision_panel.h"
#include "ui/panels/precision_table_model.h"
#include "ui/plots/tune_steps_plot.h"
#include "ui/tuning/tune_dialog.h"
#include "ui/tuning/tune_job.h"
#include "ui/tuning/tune_progress_widget.h"
#include "ui/tuning/tune_result_widget.h"
#include "ui/tuning/tune_runner.h"
#include "ui/tuning/tune_settings_widget.h"
#include "ui/tuning/tune_steps_model.h"

using namespace ql;

class TuneTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void runShowsTheStepsAndApplyIsOneUndoStep();
    void cancelLeavesThePlanUntouched();
    void precisionTableShowsRemediesAndSortsBySensitivity();
    void yourFp16LayersAreStatedCountedAndCanBeReleased();
    void fallbackWordsFollowTheTrtTyping();
    void anErrorLineLeavesEveryRowReadable();
    void topClassTargetsAreOfferedForAClassVectorOnly();
};

namespace {

// The requested precisions and tensor methods of a plan, comparable.
std::pair<std::vector<Precision>, std::map<std::string, CalibrationMethod>> choices(const PrecisionPlan& plan) {
    std::vector<Precision> requested;
    for (size_t i = 0; i < plan.size(); ++i) requested.push_back(plan.requested(static_cast<NodeId>(i)));
    return {requested, plan.tensorMethods()};
}

// Output SQNR >= 40 dB on 120 samples: the sample's auto calibration needs fallbacks for it, and one method
// trial is rejected (a fast run with both kinds of steps).
void fillSettings(ui::TuneSettingsWidget& settings, TuneTarget::Kind kind, double value, int samples) {
    settings.setTarget(kind, value);
    settings.setBudget(0, 0);
    settings.setFallback(Precision::Fp16);
    settings.setDataPath(QString::fromStdString(test::sampleDataPath("digits_test.npy")));
    settings.setLabelsPath(QString::fromStdString(test::sampleDataPath("digits_test_labels.npy")));
    settings.setSampleCount(samples);
}

ui::TuneRequest sqnrRequest() {
    ui::TuneRequest request;
    request.target = *TuneTarget::parse("output-sqnr>=40");
    request.data = {{"", test::sampleDataPath("digits_test.npy"), {}}};
    request.samples = 120;
    return request;
}

QPushButton* buttonNamed(const QWidget& parent, const QString& text) {
    for (QPushButton* button : parent.findChildren<QPushButton*>())
        if (button->text() == text) return button;
    return nullptr;
}

bool tuneAndWait(ui::TuneDialog& dialog) {
    QSignalSpy finished(dialog.runner(), &ui::TuneRunner::finished);
    QSignalSpy failed(dialog.runner(), &ui::TuneRunner::failed);
    if (!dialog.startTuning()) return false;
    return QTest::qWaitFor([&] { return finished.count() + failed.count() > 0; }, 60000) && failed.isEmpty();
}

}  // namespace

void TuneTest::runShowsTheStepsAndApplyIsOneUndoStep() {
    ui::ModelDocument document;
    test::loadSample(document);
    test::calibrateSampleNow(document, CalibrationMethod::Auto, 256);
    const auto start = choices(document.plan());
    const int steps = document.undoStack()->count();

    ui::TuneDialog dialog(&document);
    QAbstractItemModelTester tester(dialog.result()->stepsModel());
    fillSettings(*dialog.settings(), TuneTarget::Kind::OutputSqnr, 40.0, 120);
    QCOMPARE(dialog.settings()->validate(), QString());
    ui::TuneRunner* runner = dialog.runner();
    QSignalSpy progress(runner, &ui::TuneRunner::progressChanged);
    QSignalSpy finished(runner, &ui::TuneRunner::finished);
    QSignalSpy failed(runner, &ui::TuneRunner::failed);
    QSignalSpy reportChanged(&document, &ui::ModelDocument::tuneReportChanged);
    QVERIFY(dialog.startTuning());
    QVERIFY(runner->isRunning());
    QVERIFY(!dialog.settings()->isEnabled());
    QVERIFY(QTest::qWaitFor([&] { return finished.count() + failed.count() > 0; }, 60000));
    QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.front().front().toString()));

    // Progress named the phases and, once known, the target's value.
    QVERIFY(progress.count() >= 2);
    bool sawValue = false, sawTuning = false;
    for (const QList<QVariant>& report : progress) {
        sawValue |= !std::isnan(report[3].toDouble());
        sawTuning |= report[1].toString().startsWith(QStringLiteral("Trying remedies"));
    }
    QVERIFY(sawValue && sawTuning);

    // The result: the report in the document, its steps in the plot and the table, the summary.
    const auto report = document.tuneReport();
    QVERIFY(report && report == runner->report());
    QCOMPARE(reportChanged.count(), 1);
    QVERIFY(dialog.isShowingResult());
    ui::TuneStepsPlot* plot = dialog.result()->plot();
    QCOMPARE(static_cast<size_t>(plot->keptPointCount() + plot->rejectedPointCount()), report->steps.size());
    QVERIFY(plot->keptPointCount() > 1);
    QVERIFY(plot->rejectedPointCount() > 0);
    QCOMPARE(plot->targetLineValue(), 40.0);
    QVERIFY(plot->toolTipFor(1).startsWith(QStringLiteral("Step 2: ")));
    ui::TuneStepsModel* table = dialog.result()->stepsModel();
    QCOMPARE(static_cast<size_t>(table->rowCount()), report->steps.size());
    QCOMPARE(table->index(0, ui::TuneStepsModel::ActionColumn).data().toString(), QStringLiteral("baseline"));
    QCOMPARE(table->index(1, ui::TuneStepsModel::ValueColumn).data(ui::TuneStepsModel::ValueRole).toDouble(),
             report->target.valueOf(report->steps[1].score));
    const QString summary = dialog.result()->summaryText();
    QVERIFY2(summary.startsWith(report->met ? QStringLiteral("Target met") : QStringLiteral("Target NOT met")),
             qPrintable(summary));
    QVERIFY(summary.contains(QStringLiteral("kept out of INT8")) && summary.contains(QStringLiteral("INT8 share")));
    QVERIFY(!report->keptOut.empty());
    // The Add after a convolution that fell back runs FP16 by TensorRT's rules, moved by no step: said apart from the
    // tune's (it read "5 of 8 layers kept out" beside four fallbacks).
    const Graph& graph = document.model()->graph();
    const NodeId add = *graph.findNode("/Add");
    QVERIFY(std::find(report->keptOut.begin(), report->keptOut.end(), add) != report->keptOut.end());
    QVERIFY(outOfInt8ByRules(report->plan, add));
    QVERIFY2(summary.contains(QStringLiteral("(1 by TensorRT's rules after a neighbour moved)")) &&
                 summary.contains(QStringLiteral("/Add (fp16, TensorRT's rules)")),
             qPrintable(summary));
    for (NodeId node : report->keptOut)
        if (node != add) QVERIFY(!outOfInt8ByRules(report->plan, node));

    // Nothing changed before Apply; Apply is one undo step with the report's precisions and tensor methods.
    QCOMPARE(choices(document.plan()), start);
    QCOMPARE(document.undoStack()->count(), steps);
    dialog.applyResult();
    QCOMPARE(document.undoStack()->count(), steps + 1);
    QCOMPARE(choices(document.plan()), choices(report->plan));
    // Kept out: moved to FP16 by the tuner, or left with nothing to fuse into by those moves (realized_precision.h).
    for (NodeId layer : report->keptOut) QVERIFY(document.plan().effective(layer) != Precision::Int8);
    document.undoStack()->undo();
    QCOMPARE(choices(document.plan()), start);
}

void TuneTest::cancelLeavesThePlanUntouched() {
    ui::ModelDocument document;
    test::loadSample(document);
    test::calibrateSampleNow(document, CalibrationMethod::Auto, 256);
    const auto start = choices(document.plan());
    const int steps = document.undoStack()->count();

    ui::TuneDialog dialog(&document);
    // All 450 samples, every layer: over a second of work.
    fillSettings(*dialog.settings(), TuneTarget::Kind::OutputSqnr, 60.0, 0);
    QSignalSpy cancelled(dialog.runner(), &ui::TuneRunner::cancelled);
    QSignalSpy finished(dialog.runner(), &ui::TuneRunner::finished);
    QVERIFY(dialog.startTuning());
    QTest::qWait(50);
    QVERIFY2(dialog.runner()->isRunning(), "the run ended before Cancel: the model is too fast for this test");
    QPushButton* cancel = nullptr;
    for (QPushButton* button : dialog.progress()->findChildren<QPushButton*>())
        if (button->text() == QStringLiteral("Cancel")) cancel = button;
    QVERIFY(cancel && dialog.progress()->isVisibleTo(&dialog));
    QTest::mouseClick(cancel, Qt::LeftButton);
    QVERIFY(QTest::qWaitFor([&] { return !cancelled.isEmpty(); }, 5000));
    QVERIFY(finished.isEmpty());
    QVERIFY(!dialog.runner()->report());
    QVERIFY(!document.tuneReport());
    QVERIFY(!dialog.isShowingResult());
    QVERIFY(dialog.settings()->isEnabled());
    QCOMPARE(choices(document.plan()), start);
    QCOMPARE(document.undoStack()->count(), steps);
}

void TuneTest::precisionTableShowsRemediesAndSortsBySensitivity() {
    ui::MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    QSignalSpy opened(&window, &ui::MainWindow::modelOpened);
    window.openModel(test::sampleModelPath());
    QVERIFY(QTest::qWaitFor([&] { return !opened.isEmpty(); }, 10000));
    ui::ModelDocument& document = *window.document();
    test::calibrateSampleNow(document, CalibrationMethod::Auto, 256);
    auto* panel = window.findChild<ui::PrecisionPanel*>();
    ui::PrecisionTableModel* model = panel->tableModel();
    QAbstractItemModelTester tester(model);
    QSignalSpy changed(model, &QAbstractItemModel::dataChanged);

    const ui::TuneOutcome outcome =
        ui::runTuneJob(*document.model(), document.plan(), *document.calibration(), sqnrRequest(), {}, {});
    QVERIFY2(outcome.status.isOk(), outcome.status.message().c_str());
    const TuneReport& report = *outcome.report;
    document.setTuneReport(outcome.report);
    QVERIFY(!changed.isEmpty());
    const auto tuneText = [&](NodeId node) {
        return model->index(node, ui::PrecisionTableModel::TuneColumn).data().toString();
    };
    QVERIFY(!report.keptOut.empty());
    QVERIFY2(tuneText(report.keptOut.front()).startsWith(QStringLiteral("fp16: ")),
             qPrintable(tuneText(report.keptOut.front())));
    QVERIFY(tuneText(report.keptOut.front()).contains(QStringLiteral("dB alone at the outputs")));
    QVERIFY(model->index(report.keptOut.front(), ui::PrecisionTableModel::TuneColumn)
                .data(Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("fallback fp16: kept")));
    const NodeId robust = report.units.back().layer;  // most robust: never fell back
    QVERIFY2(tuneText(robust).startsWith(QStringLiteral("int8: ")), qPrintable(tuneText(robust)));

    // A click on the Tune header sorts least robust first.
    QTableView* view = panel->view();
    QHeaderView* header = view->horizontalHeader();
    const int x = header->sectionViewportPosition(ui::PrecisionTableModel::TuneColumn) +
                  header->sectionSize(ui::PrecisionTableModel::TuneColumn) / 2;
    QTest::mouseClick(header->viewport(), Qt::LeftButton, Qt::NoModifier, QPoint(x, header->height() / 2));
    QCOMPARE(header->sortIndicatorSection(), static_cast<int>(ui::PrecisionTableModel::TuneColumn));
    QCOMPARE(header->sortIndicatorOrder(), Qt::AscendingOrder);
    const auto nodeAtRow = [&](int row) {
        return panel->filterModel()->index(row, 0).data(ui::PrecisionTableModel::NodeIdRole).toInt();
    };
    QCOMPARE(nodeAtRow(0), report.units[0].layer);
    double last = -1.0;
    for (int row = 0; row < static_cast<int>(report.units.size()); ++row) {
        const double db = panel->filterModel()
                              ->index(row, ui::PrecisionTableModel::TuneColumn)
                              .data(ui::PrecisionTableModel::SortRole)
                              .toDouble();
        QVERIFY(db >= last);
        last = db;
    }

    // The top three rows to FP16 with Ctrl+2: one undo step.
    QItemSelectionModel* selection = view->selectionModel();
    selection->clearSelection();
    for (int row = 0; row < 3; ++row)
        selection->select(panel->filterModel()->index(row, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
    const QList<NodeId> top = panel->selectedNodes();
    QCOMPARE(top.size(), 3);
    const int steps = document.undoStack()->count();
    view->setFocus();
    QTest::keyClick(view, Qt::Key_2, Qt::ControlModifier);
    QCOMPARE(document.undoStack()->count(), steps + 1);
    for (NodeId node : top) QCOMPARE(document.plan().requested(node), Precision::Fp16);
    document.undoStack()->undo();
    for (NodeId node : top) QCOMPARE(document.plan().requested(node), Precision::Int8);
}

// Issue 29 item 6: a layer the user put in FP16 was silently a pin and missing from "0 of 7 layers kept out of
// INT8", and the status bar said "Apply takes the tuned plan" with Apply greyed out.
void TuneTest::yourFp16LayersAreStatedCountedAndCanBeReleased() {
    ui::ModelDocument document;
    test::loadSample(document);
    test::calibrateSampleNow(document, CalibrationMethod::Auto, 256);
    const NodeId conv = *document.model()->graph().findNode("/block/block.0/Conv");
    document.setRequestedPrecision({conv}, Precision::Fp16);

    ui::TuneDialog dialog(&document);
    QSignalSpy status(&dialog, &ui::TuneDialog::statusMessage);
    // Stated before the run: the choice, on by default, and the layer it keeps.
    const QString stated = dialog.settings()->planKeptOutText();
    QVERIFY2(stated.startsWith(QStringLiteral("Keep my FP16 layers")) &&
                 stated.contains(QStringLiteral("/block/block.0/Conv (FP16)")),
             qPrintable(stated));
    QVERIFY(dialog.settings()->request().keepPlanKeptOut);
    fillSettings(*dialog.settings(), TuneTarget::Kind::OutputSqnr, 20.0, 120);  // holds at once
    QVERIFY(tuneAndWait(dialog));
    auto report = dialog.runner()->report();
    QCOMPARE(report->planKeptOut, std::vector<NodeId>{conv});
    QVERIFY(report->keptOut.empty());
    const QString summary = dialog.result()->summaryText();
    QVERIFY2(summary.contains(QStringLiteral("1 of %1 layers kept out of INT8 (1 by you): /block/block.0/Conv (fp16, "
                                             "yours).")
                                  .arg(report->startUnits + 1)),
             qPrintable(summary));
    // Nothing to take: Apply is greyed and the status bar does not offer it.
    QPushButton* apply = buttonNamed(dialog, QStringLiteral("Apply"));
    QVERIFY(apply && !apply->isEnabled());
    QCOMPARE(status.last().front().toString(),
             QStringLiteral("Tuning met the target with the plan as it is: nothing to apply."));

    // Unchecked: the layer starts INT8 and is tuned like the rest; the plan then differs and Apply takes it.
    dialog.settings()->setKeepPlanKeptOut(false);
    QVERIFY(tuneAndWait(dialog));
    report = dialog.runner()->report();
    QVERIFY(report->planKeptOut.empty());
    QCOMPARE(report->plan.requested(conv), Precision::Int8);
    QVERIFY(apply->isEnabled());
    QCOMPARE(status.last().front().toString(), QStringLiteral("Tuning met the target; Apply takes the tuned plan."));
}

// Issue 29 item 6: "FP16 (the engine is built with --fp16)" under a strongly typed target, where no such flag exists.
void TuneTest::fallbackWordsFollowTheTrtTyping() {
    ui::ModelDocument document;
    test::loadSample(document);
    document.setTrtTarget({TrtVersion::Trt10, TrtTyping::Strong});
    ui::TuneDialog dialog(&document);
    auto* fallback = dialog.settings()->findChild<QComboBox*>(QStringLiteral("tuneFallback"));
    QVERIFY(fallback);
    QCOMPARE(fallback->itemText(0), QStringLiteral("FP16 (written as float16 in the exported graph)"));
    QVERIFY(!fallback->toolTip().contains(QStringLiteral("--fp16")));
    document.setTrtTarget({TrtVersion::Trt10, TrtTyping::Weak});
    QCOMPARE(fallback->itemText(0), QStringLiteral("FP16 (the engine is built with --fp16)"));
    QCOMPARE(fallback->itemText(1), QStringLiteral("FP32 (pinned with --layerPrecisions)"));
}

// A top-1 target on a detector's output is met by one element staying the largest (UltraFace's scores [1,4420,2]
// "tuned" to 100 % agreement): the window does not offer it there, says why, and starts from the output SQNR.
void TuneTest::topClassTargetsAreOfferedForAClassVectorOnly() {
    QSettings().remove(QStringLiteral("tune"));
    ui::ModelDocument document;
    test::loadSample(document);
    ui::TuneSettingsWidget classifier(document.model()->graph());
    QVERIFY(classifier.offersTarget(TuneTarget::Kind::Top1Agreement));
    QCOMPARE(classifier.request().target.kind(), TuneTarget::Kind::Top1Agreement);

    test::ModelBuilder b;
    b.input("x", DataType::Float, {1, 4});
    b.initializer("shape", DataType::Int64, {3}, std::vector<double>{1, 2, 2});
    b.node("Reshape", {"x", "shape"}, {"boxes"}, "as_boxes");
    b.output("boxes");
    const auto boxes = b.load();
    ui::TuneSettingsWidget detector(boxes->graph());
    QVERIFY(!detector.offersTarget(TuneTarget::Kind::Top1Agreement));
    QVERIFY(!detector.offersTarget(TuneTarget::Kind::AccuracyDrop));
    QVERIFY(detector.offersTarget(TuneTarget::Kind::OutputSqnr));
    QCOMPARE(detector.request().target.kind(), TuneTarget::Kind::OutputSqnr);
    QCOMPARE(detector.request().target.threshold(), 30.0);
    const auto* kind = detector.findChild<QComboBox*>(QStringLiteral("tuneTarget"));
    QVERIFY(kind);
    QVERIFY2(kind->toolTip().contains(QStringLiteral("the first output 'boxes' [1,2,2] holds values (4 per sample)")),
             qPrintable(kind->toolTip()));
}

// The error line under the settings takes room from them: no row may then overlap the next (the "Your plan" row's
// checkbox and its wrapped explanation did, in a walk on Silero VAD).
void TuneTest::anErrorLineLeavesEveryRowReadable() {
    ui::ModelDocument document;
    test::loadSample(document);
    ui::TuneDialog dialog(&document);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    fillSettings(*dialog.settings(), TuneTarget::Kind::OutputSqnr, 40.0, 120);
    dialog.settings()->setDataPath(QStringLiteral("/nonexistent/evaluation/data/at/a/long/path/that/wraps.npy"));
    QVERIFY(!dialog.startTuning());
    QVERIFY(!dialog.errorText().isEmpty());
    QApplication::processEvents();
    const auto* keep = dialog.findChild<QWidget*>(QStringLiteral("keepPlanKeptOut"));
    QVERIFY(keep);
    const QList<QLabel*> labels = keep->parentWidget()->findChildren<QLabel*>();
    QVERIFY(!labels.isEmpty());
    const QRect box = keep->geometry(), text = labels.front()->geometry();
    QVERIFY2(!box.intersects(text), qPrintable(QStringLiteral("checkbox %1,%2 %3x%4, text %5,%6 %7x%8")
                                                   .arg(box.x())
                                                   .arg(box.y())
                                                   .arg(box.width())
                                                   .arg(box.height())
                                                   .arg(text.x())
                                                   .arg(text.y())
                                                   .arg(text.width())
                                                   .arg(text.height())));
    QVERIFY2(text.height() >= labels.front()->heightForWidth(text.width()),
             qPrintable(QStringLiteral("text %1 high, needs %2; dialog %3 high, hint %4, min %5")
                            .arg(text.height())
                            .arg(labels.front()->heightForWidth(text.width()))
                            .arg(dialog.height())
                            .arg(dialog.sizeHint().height())
                            .arg(dialog.minimumSizeHint().height())));
}

QTEST_MAIN(TuneTest)
#include "tune_test.moc"
