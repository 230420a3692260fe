// Calibration in the background: a run reports progress and hands its results to the document; Cancel stops
// a run within a second and leaves the previous results (the same objects); a bad data path fails with a
// message naming the file and changes nothing.
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QtTest>

#include "tests/support/model_builder.h"
#include "tests/ui/calibration/calibration_test_support.h"
#include "ui/calibration/calibration_runner.h"
#include "ui/model_document.h"

using namespace ql;

class CalibrationRunnerTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void runReportsProgressAndHandsResultsToTheDocument();
    void runWithoutAnalysisClearsTheOldAnalysis();
    void cancelStopsWithinASecondAndKeepsTheOldResults();
    void badDataPathFailsNamingTheFile();
    void secondStartWhileRunningIsRefused();
};

void CalibrationRunnerTest::runReportsProgressAndHandsResultsToTheDocument() {
    ui::ModelDocument document;
    test::loadSample(document);
    ui::CalibrationRunner runner(&document);
    QSignalSpy progress(&runner, &ui::CalibrationRunner::progressChanged);
    QSignalSpy finished(&runner, &ui::CalibrationRunner::finished);
    QSignalSpy failed(&runner, &ui::CalibrationRunner::failed);
    QSignalSpy calibrationChanged(&document, &ui::ModelDocument::calibrationChanged);
    QElapsedTimer clock;
    clock.start();
    QVERIFY(runner.start(test::sampleRequest(true, 128)));
    QVERIFY(runner.isRunning());
    QVERIFY(QTest::qWaitFor([&] { return finished.count() + failed.count() > 0; }, 120000));
    QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.front().front().toString()));
    QVERIFY(!runner.isRunning());

    // Progress: several reports, never going back, phases named, ending at 1; throttled to one per interval
    // (plus one per phase change and the start/end reports).
    QVERIFY(progress.count() >= 3);
    double last = -1.0;
    bool sawCalibrating = false, sawAnalysis = false;
    for (const QList<QVariant>& report : progress) {
        const double fraction = report[0].toDouble();
        QVERIFY(fraction >= last && fraction <= 1.0);
        last = fraction;
        sawCalibrating |= report[1].toString().startsWith(QStringLiteral("Calibrating"));
        sawAnalysis |= report[1].toString().startsWith(QStringLiteral("Measuring the error of each layer"));
    }
    QCOMPARE(last, 1.0);
    QVERIFY(sawCalibrating && sawAnalysis);
    QVERIFY(progress.count() <= clock.elapsed() / runner.progressInterval() + 8);

    QCOMPARE(calibrationChanged.count(), 1);
    const auto calibration = document.calibration();
    QVERIFY(calibration);
    QCOMPARE(calibration->samples, 128);
    QVERIFY(!calibration->activations.empty());
    const auto accumulated = document.analysis(AnalysisMode::Accumulated);
    const auto isolated = document.analysis(AnalysisMode::Isolated);
    QVERIFY(accumulated && isolated);
    QCOMPARE(accumulated->mode, AnalysisMode::Accumulated);
    QCOMPARE(isolated->mode, AnalysisMode::Isolated);
    QCOMPARE(accumulated->samples, 120);
    QVERIFY(accumulated->outputs.hasLabels);
    QVERIFY(accumulated->outputs.accuracyFp32 > 0.5);             // the trained sample classifies digits
    QCOMPARE(accumulated->outputPairs.size(), size_t{120 * 10});  // 10 classes, under the cap
}

void CalibrationRunnerTest::runWithoutAnalysisClearsTheOldAnalysis() {
    ui::ModelDocument document;
    test::loadSample(document);
    test::calibrateSampleNow(document);
    const auto old = document.calibration();
    QVERIFY(document.analysis(AnalysisMode::Accumulated));
    ui::CalibrationRunner runner(&document);
    QSignalSpy finished(&runner, &ui::CalibrationRunner::finished);
    QVERIFY(runner.start(test::sampleRequest(false, 32)));
    QVERIFY(finished.wait(60000));
    QVERIFY(document.calibration() && document.calibration() != old);
    QCOMPARE(document.calibration()->samples, 32);
    // The old analysis measured the old ranges: it goes.
    QVERIFY(!document.analysis(AnalysisMode::Accumulated));
    QVERIFY(!document.analysis(AnalysisMode::Isolated));
}

void CalibrationRunnerTest::cancelStopsWithinASecondAndKeepsTheOldResults() {
    test::TempDir dir;
    const std::string data = dir.file("conv_calib.npy");
    test::writeConvNetData(data, 400);
    ui::ModelDocument document;
    document.replaceModel(test::slowConvNet());
    auto oldCalibration = std::make_shared<CalibrationResult>();
    oldCalibration->samples = 7;
    auto oldAnalysis = std::make_shared<AnalysisReport>();
    document.setCalibration(oldCalibration);
    document.setAnalysis(AnalysisMode::Accumulated, oldAnalysis);

    ui::CalibrationRunner runner(&document);
    QSignalSpy cancelled(&runner, &ui::CalibrationRunner::cancelled);
    QSignalSpy finished(&runner, &ui::CalibrationRunner::finished);
    QSignalSpy progress(&runner, &ui::CalibrationRunner::progressChanged);
    ui::CalibrationRequest request;
    request.data = {{"", data, {}}};
    request.analyze = true;
    // Right after the start (the worker is opening the data or running the first batches).
    QVERIFY(runner.start(request));
    QTest::qWait(150);
    QVERIFY2(runner.isRunning(), "the run ended before Cancel: the model is too fast for this test");
    QElapsedTimer clock;
    clock.start();
    runner.cancel();
    QVERIFY(QTest::qWaitFor([&] { return !cancelled.isEmpty(); }, 5000));
    const qint64 latency = clock.elapsed();
    QVERIFY2(latency < 1000, qPrintable(QStringLiteral("Cancel took %1 ms").arg(latency)));
    QVERIFY(finished.isEmpty());
    QVERIFY(!runner.isRunning());
    QCOMPARE(document.calibration().get(), oldCalibration.get());
    QCOMPARE(document.analysis(AnalysisMode::Accumulated).get(), oldAnalysis.get());

    // The runner can run again afterwards (it is cancelled again at once).
    QVERIFY(runner.start(request));
    runner.cancel();
    QVERIFY(QTest::qWaitFor([&] { return cancelled.count() == 2; }, 5000));
    QCOMPARE(document.calibration().get(), oldCalibration.get());
}

void CalibrationRunnerTest::badDataPathFailsNamingTheFile() {
    ui::ModelDocument document;
    test::loadSample(document);
    test::calibrateSampleNow(document);
    const auto old = document.calibration();
    ui::CalibrationRunner runner(&document);
    QSignalSpy failed(&runner, &ui::CalibrationRunner::failed);
    QSignalSpy finished(&runner, &ui::CalibrationRunner::finished);

    ui::CalibrationRequest request = test::sampleRequest(true);
    request.data = {{"", "/nonexistent/folder/missing_calib.npy", {}}};
    QVERIFY(runner.start(request));
    QVERIFY(failed.wait(10000));
    QVERIFY2(failed.front().front().toString().contains(QStringLiteral("missing_calib.npy")),
             qPrintable(failed.front().front().toString()));

    // Evaluation data and labels are checked before the long work too.
    request = test::sampleRequest(true);
    request.labelsPath = "/nonexistent/missing_labels.npy";
    QVERIFY(runner.start(request));
    QVERIFY(failed.wait(10000));
    QVERIFY2(failed.back().front().toString().contains(QStringLiteral("missing_labels.npy")),
             qPrintable(failed.back().front().toString()));
    QVERIFY(finished.isEmpty());
    QCOMPARE(document.calibration().get(), old.get());
}

void CalibrationRunnerTest::secondStartWhileRunningIsRefused() {
    ui::ModelDocument document;
    ui::CalibrationRunner runner(&document);
    QVERIFY(!runner.start(test::sampleRequest(false)));  // no model
    test::loadSample(document);
    QSignalSpy finished(&runner, &ui::CalibrationRunner::finished);
    QVERIFY(runner.start(test::sampleRequest(false)));
    QVERIFY(!runner.start(test::sampleRequest(false)));
    QVERIFY(finished.wait(60000));
    QCOMPARE(finished.count(), 1);
}

QTEST_MAIN(CalibrationRunnerTest)
#include "calibration_runner_test.moc"
