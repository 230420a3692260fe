// Issue 18, item 1: results carry the plan and calibration they measured. A plan edit, a new calibration or a
// project saved after a change mark every analysis view stale at once (table, layer error, output scatter), and
// Quantize > Measure Again measures the current plan in the background in one action.
#include <QAction>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QUndoStack>
#include <QtTest>

#include <fstream>

#include "tests/support/model_builder.h"
#include "tests/ui/calibration/calibration_test_support.h"
#include "ui/calibration/calibration_controller.h"
#include "ui/calibration/data_settings.h"
#include "ui/main_window.h"
#include "ui/model_document.h"
#include "ui/panels/precision_table_model.h"
#include "ui/plots/layer_error_plot.h"
#include "ui/plots/output_scatter_plot.h"
#include "ui/project_file.h"

using namespace ql;

class StaleResultsTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void everyLayerFp32MarksEveryViewStale();
    void aNewCalibrationMarksTheAnalysisStale();
    void aProjectSavesTheMeasuredPlanAndSaysItIsStale();
    void measureAgainMeasuresTheCurrentPlan();
    void theBannerGivesEveryReason();
};

namespace {

QList<NodeId> allNodes(const ui::ModelDocument& document) {
    QList<NodeId> nodes;
    for (const Node& node : document.model()->graph().nodes()) nodes.append(node.id);
    return nodes;
}

nlohmann::json sampleDataSettings() {
    return {{"data", {test::sampleDataPath("digits_calib.npy")}},
            {"samples", 64},
            {"analyze", true},
            {"evaluation_data", {test::sampleDataPath("digits_test.npy")}},
            {"labels", test::sampleDataPath("digits_test_labels.npy")},
            {"evaluation_samples", 60}};
}

}  // namespace

void StaleResultsTest::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("QuantLensTest"));
    QCoreApplication::setApplicationName(QStringLiteral("stale_results_test"));
}

void StaleResultsTest::everyLayerFp32MarksEveryViewStale() {
    ui::ModelDocument document;
    test::loadSample(document);
    test::calibrateSampleNow(document);
    ui::PrecisionTableModel table(&document);
    ui::LayerErrorPlot layers;
    layers.setDocument(&document);
    ui::OutputScatterPlot scatter;
    scatter.setDocument(&document);
    QVERIFY(!document.isAnalysisStale() && !layers.isStale() && !scatter.isStale());

    document.setRequestedPrecision(allNodes(document), Precision::Fp32);
    QVERIFY(document.isAnalysisStale());
    QVERIFY(document.analysisStaleReason().contains(QStringLiteral("plan changed")));
    QVERIFY(layers.isStale());
    QVERIFY(scatter.isStale());
    QVERIFY(table.headerData(ui::PrecisionTableModel::SqnrColumn, Qt::Horizontal).toString().contains("stale"));
    QVERIFY(table.headerData(ui::PrecisionTableModel::SensitivityColumn, Qt::Horizontal).toString().contains("stale"));

    document.undoStack()->undo();
    QVERIFY(!scatter.isStale() && !layers.isStale());
}

void StaleResultsTest::aNewCalibrationMarksTheAnalysisStale() {
    ui::ModelDocument document;
    test::loadSample(document);
    test::calibrateSampleNow(document);
    ui::OutputScatterPlot scatter;
    scatter.setDocument(&document);
    QVERIFY(!scatter.isStale());
    auto other = std::make_shared<CalibrationResult>(*document.calibration());
    document.setCalibration(other);
    QVERIFY(document.isAnalysisStale());
    QVERIFY(document.analysisStaleReason().contains(QStringLiteral("calibration")));
    QVERIFY(scatter.isStale());
}

// A new calibration and an edited plan: the banner named only the calibration, and "%n layer(s)" came out literally.
void StaleResultsTest::theBannerGivesEveryReason() {
    ui::ModelDocument document;
    test::loadSample(document);
    test::calibrateSampleNow(document);
    document.setCalibration(std::make_shared<CalibrationResult>(*document.calibration()));
    const QList<NodeId> nodes = allNodes(document);
    // A Relu after the INT8 residual Add to FP32: it still runs INT8, fused into the Add, so one layer differs.
    document.setRequestedPrecision({*document.model()->graph().findNode("/Relu")}, Precision::Fp32);
    QCOMPARE(document.analysisStaleReason(),
             QStringLiteral("the calibration changed and the plan changed (1 layer differs) since it was measured"));
    document.setRequestedPrecision(nodes, Precision::Fp32);
    QVERIFY2(document.analysisStaleReason().contains(QRegularExpression(QStringLiteral("\\(\\d+ layers differ\\)"))),
             qPrintable(document.analysisStaleReason()));
}

void StaleResultsTest::aProjectSavesTheMeasuredPlanAndSaysItIsStale() {
    test::TempDir dir;
    const QString project = QString::fromStdString(dir.file("stale.qlproj"));
    {
        ui::ModelDocument document;
        test::loadSample(document);
        test::calibrateSampleNow(document);
        document.setRequestedPrecision(allNodes(document), Precision::Fp32);
        QVERIFY(ui::saveProject(document, project).isOk());
    }
    std::ifstream in(project.toStdString());
    const auto json = nlohmann::json::parse(in);
    QVERIFY(json.contains("analysis_plan"));
    QVERIFY(json.value("analysis_stale", "").find("plan changed") != std::string::npos);

    const auto loaded = ui::loadProject(project);
    QVERIFY2(loaded->model, qPrintable(loaded->error));
    ui::ModelDocument reopened;
    reopened.replaceModel(*loaded);
    QVERIFY(reopened.isAnalysisStale());
}

void StaleResultsTest::measureAgainMeasuresTheCurrentPlan() {
    ui::MainWindow window;
    ui::ModelDocument& document = *window.document();
    test::loadSample(document);
    test::calibrateSampleNow(document);
    ui::keepDataSettings(document, sampleDataSettings());
    auto* controller = window.findChild<ui::CalibrationController*>();
    QVERIFY(controller);
    QVERIFY(!controller->measureAction()->isEnabled());  // current: nothing to measure

    document.setRequestedPrecision(allNodes(document), Precision::Fp32);
    QVERIFY(controller->measureAction()->isEnabled());
    const auto calibration = document.calibration();
    QSignalSpy analysed(&document, &ui::ModelDocument::analysisChanged);
    controller->measureAction()->trigger();
    QVERIFY(QTest::qWaitFor([&] { return analysed.count() >= 2; }, 30000));
    QVERIFY(!document.isAnalysisStale());
    QCOMPARE(document.calibration().get(), calibration.get());  // measured, not calibrated again
    const auto report = document.analysis(AnalysisMode::Accumulated);
    QVERIFY(report && !report->layers.empty());
    for (const LayerError& layer : report->layers) QCOMPARE(layer.precision, Precision::Fp32);
    auto* scatter = window.findChild<ui::OutputScatterPlot*>();
    QVERIFY(scatter && !scatter->isStale());
    // Nothing quantized: the Layer Error plot says so instead of an empty frame.
    auto* layers = window.findChild<ui::LayerErrorPlot*>();
    QVERIFY(layers && layers->barCount(AnalysisMode::Accumulated) == 0);
    QVERIFY2(layers->placeholderText().contains(QStringLiteral("No layer of the measured plan runs in INT8")),
             qPrintable(layers->placeholderText()));
}

QTEST_MAIN(StaleResultsTest)
#include "stale_results_test.moc"
