// Quantize > Tune... with the latency objective (issue 28 item 5) on the sample: the settings offer the objective
// and a GPU (the project's GPU profile first when it has one, else the GPU table); the run happens off the GUI
// thread as any tune; the result shows the plans tried as predicted time against the target's value with the chosen
// one ringed, each region's decision with its reason, and the predicted times in the summary.
#include <QComboBox>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QtTest>

#include "core/engine/gpu_specs.h"
#include "core/engine/latency_model.h"
#include "tests/ui/calibration/calibration_test_support.h"
#include "ui/model_document.h"
#include "ui/plots/latency_accuracy_plot.h"
#include "ui/tuning/tune_dialog.h"
#include "ui/tuning/tune_result_widget.h"
#include "ui/tuning/tune_runner.h"
#include "ui/tuning/tune_settings_widget.h"

using namespace ql;

class TuneLatencyTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void settingsOfferTheProjectGpuThenTheTable();
    void latencyRunShowsThePlansTriedAndTheRegions();
};

void TuneLatencyTest::settingsOfferTheProjectGpuThenTheTable() {
    ui::ModelDocument document;
    test::loadSample(document);
    ui::TuneSettingsWidget settings(document.model()->graph());
    settings.setObjective(TuneObjective::Accuracy);
    QVERIFY(!settings.request().gpu);  // the accuracy objective times nothing
    auto* gpu = settings.findChild<QComboBox*>(QStringLiteral("tuneGpu"));
    QVERIFY(gpu);
    QVERIFY(!gpu->isEnabled());
    settings.setObjective(TuneObjective::Latency);
    QVERIFY(gpu->isEnabled());
    QCOMPARE(gpu->count(), static_cast<int>(gpuSpecs().size()));
    QVERIFY(settings.setGpu(QStringLiteral("l4")));
    ui::TuneRequest request = settings.request();
    QCOMPARE(request.objective, TuneObjective::Latency);
    QVERIFY(request.gpu && request.gpu->gpu.name == "l4");
    QVERIFY(!settings.setGpu(QStringLiteral("gtx480")));

    auto project = std::make_shared<GpuProfile>(defaultGpuProfile(*findGpu("rtx3060-laptop")));
    settings.setProjectGpuProfile(project);
    QCOMPARE(gpu->count(), static_cast<int>(gpuSpecs().size()) + 1);
    QVERIFY(gpu->itemText(0).startsWith(QStringLiteral("The project's GPU profile")));
    QCOMPARE(settings.gpuName(), QStringLiteral("rtx3060-laptop"));
    QCOMPARE(settings.request().gpu.get(), project.get());  // the project's profile itself, fitted terms and all
    settings.setProjectGpuProfile(nullptr);
    QCOMPARE(gpu->count(), static_cast<int>(gpuSpecs().size()));
}

void TuneLatencyTest::latencyRunShowsThePlansTriedAndTheRegions() {
    ui::ModelDocument document;
    test::loadSample(document);
    test::calibrateSampleNow(document, CalibrationMethod::Auto, 256);
    ui::TuneDialog dialog(&document);
    ui::TuneSettingsWidget& settings = *dialog.settings();
    settings.setTarget(TuneTarget::Kind::OutputSqnr, 30.0);
    settings.setBudget(0, 0);
    settings.setFallback(Precision::Fp16);
    settings.setDataPath(QString::fromStdString(test::sampleDataPath("digits_test.npy")));
    settings.setSampleCount(120);
    settings.setObjective(TuneObjective::Latency);
    QVERIFY(settings.setGpu(QStringLiteral("t4")));
    QSignalSpy finished(dialog.runner(), &ui::TuneRunner::finished);
    QSignalSpy failed(dialog.runner(), &ui::TuneRunner::failed);
    QVERIFY(dialog.startTuning());
    QVERIFY(dialog.runner()->isRunning());  // off the GUI thread: startTuning returned while it runs
    QVERIFY(QTest::qWaitFor([&] { return finished.count() + failed.count() > 0; }, 120000));
    QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.front().front().toString()));

    const auto report = document.tuneReport();
    QVERIFY(report && report->objective == TuneObjective::Latency && report->latency);
    QCOMPARE(report->latency->gpu, std::string("t4"));
    ui::TuneResultWidget* result = dialog.result();
    QCOMPARE(result->plotTabs()->currentWidget(), static_cast<QWidget*>(result->latencyPlot()));
    QVERIFY(result->plotTabs()->isTabVisible(result->plotTabs()->indexOf(result->latencyPlot())));
    ui::LatencyAccuracyPlot* plot = result->latencyPlot();
    int timed = 0;
    for (const TuneStep& step : report->steps) timed += step.predictedMs ? 1 : 0;
    QVERIFY(timed > 0);
    QCOMPARE(plot->timedPointCount(), timed);
    QVERIFY(plot->chosenPoint());
    QCOMPARE(plot->chosenPoint()->x(), report->latency->finalMs);
    QCOMPARE(plot->chosenPoint()->y(), report->target.valueOf(report->finalScore));
    QVERIFY(plot->placeholderText().isEmpty());
    // Each region's decision with its reason and numbers.
    const QString regions = result->regionsText();
    QVERIFY(!regions.isEmpty());
    if (!report->latency->regions.empty()) {
        QCOMPARE(regions.count(QLatin1Char('\n')) + 1, static_cast<qsizetype>(report->latency->regions.size()));
        QVERIFY2(regions.contains(QStringLiteral("on t4: ")) && regions.contains(QStringLiteral(" ms")),
                 qPrintable(regions));
        QVERIFY2(regions.contains(QStringLiteral("(predicted, an estimate)")), qPrintable(regions));
    }
    const QString summary = result->summaryText();
    QVERIFY2(summary.contains(QStringLiteral("Predicted on t4 (an estimate): ")), qPrintable(summary));
    QVERIFY2(summary.contains(QStringLiteral("all-FP16")), qPrintable(summary));
}

QTEST_MAIN(TuneLatencyTest)
#include "tune_latency_test.moc"
