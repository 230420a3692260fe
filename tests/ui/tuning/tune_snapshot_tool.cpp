// Renders the tune dialog of the bundled sample (its settings, a run in progress, the result with the steps
// plot) and the histogram panel with every method's numbers and an override, as PNGs for looking at them (not a
// test). The sample is calibrated with `auto` and tuned for top1-agreement>=100, which takes real steps.
//   QT_QPA_PLATFORM=offscreen ql_tune_snapshot OUTDIR [--dark] [--entropy] [--latency]
// writes OUTDIR/tune-dialog.png, tune-running.png, tune-result.png, histogram-override.png, window.png (the
// window after Apply) and precision-table.png (sorted by the tune's sensitivity). --latency: the latency objective
// on a T4, and the result's tabs as tune-latency-plot.png (plans tried, predicted time vs value) and
// tune-latency-regions.png (each region's reason) instead of tune-result.png. --your-fp16: /block/block.0/Conv set to
// FP16 first and the target output-sqnr>=20, which the plan meets as it is (the dialog states the layer, the result
// counts it, Apply has nothing to take: the status bar's message is printed). --weak: TensorRT 10 weakly typed.
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QtTest>
#include <cstdio>

#include "tests/ui/calibration/calibration_test_support.h"
#include "ui/calibration/calibration_controller.h"
#include "ui/calibration/calibration_runner.h"
#include "ui/main_window.h"
#include "ui/model_document.h"
#include "ui/panels/precision_table_model.h"
#include "ui/plots/histogram_plot.h"
#include "ui/theme.h"
#include "ui/tuning/tune_controller.h"
#include "ui/tuning/tune_dialog.h"
#include "ui/tuning/tune_progress_widget.h"
#include "ui/tuning/tune_result_widget.h"
#include "ui/tuning/tune_runner.h"
#include "ui/tuning/tune_settings_widget.h"

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    const QStringList args = QApplication::arguments();
    if (args.size() < 2) {
        std::fprintf(stderr, "usage: ql_tune_snapshot OUTDIR [--dark]\n");
        return 2;
    }
    const QDir out(args[1]);
    ql::ui::applyTheme(args.contains(QStringLiteral("--dark")) ? ql::ui::Theme::Dark : ql::ui::Theme::Light);

    ql::ui::MainWindow window;
    window.resize(1600, 1000);
    window.show();
    QSignalSpy opened(&window, &ql::ui::MainWindow::modelOpened);
    window.openModel(ql::test::sampleModelPath());
    if (!QTest::qWaitFor([&] { return !opened.isEmpty(); }, 30000)) return 1;
    auto* runner = window.findChild<ql::ui::CalibrationController*>()->runner();
    QSignalSpy calibrated(runner, &ql::ui::CalibrationRunner::finished);
    ql::ui::CalibrationRequest request = ql::test::sampleRequest(true, 256);
    // --entropy: TensorRT's default, which gives the sample calib-method-gap findings (and a tune met at once).
    request.config.method =
        args.contains(QStringLiteral("--entropy")) ? ql::CalibrationMethod::Entropy : ql::CalibrationMethod::Auto;
    runner->start(request);
    if (!QTest::qWaitFor([&] { return !calibrated.isEmpty(); }, 120000)) return 1;

    const bool yourFp16 = args.contains(QStringLiteral("--your-fp16"));
    if (yourFp16) {
        const ql::Graph& graph = window.document()->model()->graph();
        window.document()->setRequestedPrecision({*graph.findNode("/block/block.0/Conv")}, ql::Precision::Fp16);
    }
    if (args.contains(QStringLiteral("--weak")))
        window.document()->setTrtTarget({ql::TrtVersion::Trt10, ql::TrtTyping::Weak});
    auto* controller = window.findChild<ql::ui::TuneController*>();
    if (!controller->openDialog()) return 1;
    ql::ui::TuneDialog* dialog = controller->dialog();
    dialog->resize(980, dialog->sizeHint().height());
    ql::ui::TuneSettingsWidget* settings = dialog->settings();
    if (yourFp16)
        settings->setTarget(ql::TuneTarget::Kind::OutputSqnr, 20.0);
    else
        settings->setTarget(ql::TuneTarget::Kind::Top1Agreement, 100.0);
    QObject::connect(dialog, &ql::ui::TuneDialog::statusMessage,
                     [](const QString& text) { std::printf("status bar: %s\n", qPrintable(text)); });
    settings->setBudget(10, 120);  // the trial budget makes the running bar move
    settings->setDataPath(QString::fromStdString(ql::test::sampleDataPath("digits_test.npy")));
    settings->setLabelsPath(QString::fromStdString(ql::test::sampleDataPath("digits_test_labels.npy")));
    settings->setSampleCount(0);
    const bool latency = args.contains(QStringLiteral("--latency"));
    if (latency) {
        settings->setObjective(ql::TuneObjective::Latency);
        settings->setGpu(QStringLiteral("t4"));
    }
    QTest::qWait(300);
    if (!ql::test::saveSnapshot(dialog, out, "tune-dialog.png")) return 1;

    QSignalSpy finished(dialog->runner(), &ql::ui::TuneRunner::finished);
    QSignalSpy progress(dialog->runner(), &ql::ui::TuneRunner::progressChanged);
    if (!dialog->startTuning()) {
        std::fprintf(stderr, "%s\n", qPrintable(dialog->errorText()));
        return 1;
    }
    // Mid-run: once the tuner is trying remedies (the value is known then).
    if (!QTest::qWaitFor(
            [&] { return dialog->progress()->phaseText().startsWith(QStringLiteral("Trying")) || !finished.isEmpty(); },
            60000))
        return 1;
    QTest::qWait(30);  // the strip's layout catches up with the new texts
    if (!ql::test::saveSnapshot(dialog, out, "tune-running.png")) return 1;
    if (!QTest::qWaitFor([&] { return !finished.isEmpty(); }, 120000)) return 1;
    QTest::qWait(300);
    if (latency) {
        QTabWidget* tabs = dialog->result()->plotTabs();
        tabs->setCurrentIndex(1);
        QTest::qWait(300);
        if (!ql::test::saveSnapshot(dialog, out, "tune-latency-plot.png")) return 1;
        tabs->setCurrentIndex(2);
        QTest::qWait(300);
        return ql::test::saveSnapshot(dialog, out, "tune-latency-regions.png") ? 0 : 1;
    }
    if (!ql::test::saveSnapshot(dialog, out, "tune-result.png")) return 1;
    if (yourFp16) return 0;
    dialog->applyResult();

    // The histogram of the input the tune looked at first, with another method chosen for it.
    auto* histogram = window.findChild<ql::ui::HistogramPlot*>();
    histogram->showTensor(QStringLiteral("/block/block.2/Relu_output_0"));
    histogram->chooseMethod(ql::CalibrationMethod::Percentile);
    histogram->setLogScale(true);  // the tail, not the zeros of the Relu
    auto* dock = window.findChild<QDockWidget*>(QStringLiteral("HistogramDock"));
    dock->setFloating(true);
    dock->resize(860, 420);
    QTest::qWait(500);
    if (!ql::test::saveSnapshot(dock, out, "histogram-override.png")) return 1;
    // The window after Apply: findings, the precision table sorted by the tune's sensitivity.
    dock->setFloating(false);
    window.findChild<QDockWidget*>(QStringLiteral("PrecisionDock"))->raise();
    auto* table = window.findChild<QTableView*>(QStringLiteral("PrecisionTable"));
    table->sortByColumn(ql::ui::PrecisionTableModel::TuneColumn, Qt::AscendingOrder);
    QTest::qWait(500);
    if (!ql::test::saveSnapshot(&window, out, "window.png")) return 1;
    // The precision table alone, wide enough for the Tune column.
    auto* precision = window.findChild<QDockWidget*>(QStringLiteral("PrecisionDock"));
    precision->setFloating(true);
    precision->resize(1500, 420);
    QTest::qWait(300);
    return ql::test::saveSnapshot(precision, out, "precision-table.png") ? 0 : 1;
}
