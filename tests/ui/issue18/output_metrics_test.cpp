// Issue 18, item 7 (the window's part): the output scatter reports the metrics that fit the output. A class vector
// gets top-1 agreement and accuracy; a detector's boxes-and-scores tensor gets SQNR, cosine and max error (per
// channel group), never a "top-1 agreement" that means nothing there.
#include <QStandardPaths>
#include <QtTest>

#include "core/data/npy.h"
#include "core/quant/default_placement.h"
#include "tests/support/model_builder.h"
#include "tests/ui/calibration/calibration_test_support.h"
#include "ui/calibration/calibration_job.h"
#include "ui/model_document.h"
#include "ui/plots/output_scatter_plot.h"

using namespace ql;

class OutputMetricsTest : public QObject {
    Q_OBJECT
private slots:
    void aClassVectorShowsAgreementAndAccuracy();
    void aDetectorShowsSqnrNotAgreement();
    void theWindowsAnalysisSplitsADetectorsBoxesAndScores();
};

void OutputMetricsTest::aClassVectorShowsAgreementAndAccuracy() {
    ui::ModelDocument document;
    test::loadSample(document);
    test::calibrateSampleNow(document);
    ui::OutputScatterPlot scatter;
    scatter.setDocument(&document);
    QVERIFY2(scatter.summaryText().contains(QStringLiteral("Class vector: top-1 agreement")),
             qPrintable(scatter.summaryText()));
    QVERIFY(scatter.summaryText().contains(QStringLiteral("Accuracy")));
    // The change of accuracy carries its sign.
    auto report = std::make_shared<AnalysisReport>(*document.analysis(AnalysisMode::Accumulated));
    report->outputs.hasLabels = true;
    report->outputs.accuracyFp32 = 0.9911;
    report->outputs.accuracyQuant = 0.9933;
    document.setAnalysis(AnalysisMode::Accumulated, report);
    QVERIFY2(scatter.summaryText().contains(QStringLiteral("(+0.22 points)")), qPrintable(scatter.summaryText()));
    report = std::make_shared<AnalysisReport>(*report);
    report->outputs.accuracyQuant = 0.9889;
    document.setAnalysis(AnalysisMode::Accumulated, report);
    QVERIFY2(scatter.summaryText().contains(QStringLiteral("(-0.22 points)")), qPrintable(scatter.summaryText()));
}

void OutputMetricsTest::aDetectorShowsSqnrNotAgreement() {
    ui::ModelDocument document;
    const auto loaded = ui::ModelDocument::load(QStringLiteral(QL_TEST_DATA_DIR "/models/yolov8_tiny.onnx"));
    QVERIFY2(loaded->model, qPrintable(loaded->error));
    document.replaceModel(*loaded);
    const Graph& graph = document.model()->graph();
    const ValueId output = graph.outputs().front();
    // What an analysis of a detector whose scatter hugs the diagonal reports: argmax agreement of 3 %.
    auto report = std::make_shared<AnalysisReport>();
    report->samples = 32;
    report->outputs.samples = 32;
    report->outputs.top1Agreement = 0.0313;
    LayerError layer;
    layer.node = graph.value(output).producer;
    layer.output = output;
    layer.precision = Precision::Int8;
    layer.metrics.sqnrDb = 31.5;
    layer.metrics.cosine = 0.9996;
    report->layers.push_back(layer);
    OutputGroupError scores;
    scores.group = {"scores", 1, 4, 84};
    scores.metrics.sqnrDb = 22.0;
    report->outputGroups.push_back(scores);
    report->outputPairs = {{1.0f, 1.01f}, {2.0f, 1.98f}};
    document.setAnalysis(AnalysisMode::Accumulated, report);

    ui::OutputScatterPlot scatter;
    scatter.setDocument(&document);
    const QString text = scatter.summaryText();
    QVERIFY2(!text.contains(QStringLiteral("3.13")), qPrintable(text));
    QVERIFY(text.contains(QStringLiteral("does not apply")));
    QVERIFY(text.contains(QStringLiteral("Detection output")));
    QVERIFY(text.contains(QStringLiteral("SQNR 31.50 dB")));
    QVERIFY(text.contains(QStringLiteral("scores: SQNR 22.00 dB")));
}

// The walk-through found the window's own calibration reporting one SQNR over boxes (0-480) and scores (0-1) where
// `compare` splits them: the analysis the window runs measures the channel groups too.
void OutputMetricsTest::theWindowsAnalysisSplitsADetectorsBoxesAndScores() {
    const auto loaded = ui::ModelDocument::load(QStringLiteral(QL_TEST_DATA_DIR "/models/yolov8_tiny.onnx"));
    QVERIFY2(loaded->model, qPrintable(loaded->error));
    test::TempDir dir;
    const std::string data = dir.file("images.npy");
    QVERIFY(writeNpy(data, Tensor::fromVector(DataType::Float, {2, 3, 320, 320},
                                              test::seededFloats(2 * 3 * 320 * 320, 5, 0.0f, 1.0f))));
    ui::CalibrationRequest request;
    request.data = {{"", data, {}}};
    request.samples = 2;
    request.analyze = true;
    request.evaluationData = request.data;
    request.evaluationSamples = 2;
    const ui::CalibrationOutcome outcome =
        ui::runCalibrationJob(*loaded->model, defaultPrecisionPlan(loaded->model->graph()), request, {}, {});
    QVERIFY2(outcome.status.isOk(), outcome.status.message().c_str());
    QVERIFY(outcome.accumulated);
    QStringList groups;
    for (const OutputGroupError& group : outcome.accumulated->outputGroups)
        groups.append(QString::fromStdString(group.group.name));
    QCOMPARE(groups, (QStringList{QStringLiteral("boxes"), QStringLiteral("scores")}));
}

QTEST_MAIN(OutputMetricsTest)
#include "output_metrics_test.moc"
