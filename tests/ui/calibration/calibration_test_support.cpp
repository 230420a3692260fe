#include "tests/ui/calibration/calibration_test_support.h"

#include <QtTest>
#include <cstdio>

#include "core/data/npy.h"
#include "tests/support/model_builder.h"
#include "ui/calibration/calibration_job.h"
#include "ui/calibration/calibration_runner.h"
#include "ui/graph/graph_view.h"
#include "ui/main_window.h"

namespace ql::test {

QString sampleModelPath() {
    return QStringLiteral(QL_SOURCE_DIR "/resources/samples/digits_cnn.onnx");
}

std::string sampleDataPath(const char* file) {
    return std::string(QL_SOURCE_DIR "/resources/samples/") + file;
}

void loadSample(ui::ModelDocument& document) {
    const auto loaded = ui::ModelDocument::load(sampleModelPath());
    QVERIFY2(loaded->model, qPrintable(loaded->error));
    document.replaceModel(*loaded);
}

std::shared_ptr<Model> slowConvNet() {
    ModelBuilder b;
    b.input("x", DataType::Float, {-1, 3, 64, 64});
    std::string previous = "x";
    int64_t channels = 3;
    for (int i = 0; i < 6; ++i) {
        const std::string n = std::to_string(i);
        b.initializer("w" + n, {32, channels, 3, 3},
                      seededFloats(static_cast<size_t>(32 * channels * 9), 11 + i, -0.1f, 0.1f));
        b.node("Conv", {previous, "w" + n}, {"c" + n}, "conv" + n).ints("pads", {1, 1, 1, 1});
        b.node("Relu", {"c" + n}, {"r" + n}, "relu" + n);
        previous = "r" + n;
        channels = 32;
    }
    b.output(previous);
    return std::shared_ptr<Model>(b.load());
}

void writeConvNetData(const std::string& path, int64_t samples) {
    const Tensor data = Tensor::fromVector(DataType::Float, {samples, 3, 64, 64},
                                           seededFloats(static_cast<size_t>(samples * 3 * 64 * 64), 5));
    const Status written = writeNpy(path, data);
    QVERIFY2(written.isOk(), written.message().c_str());
}

ui::CalibrationRequest sampleRequest(bool analyze, int64_t samples) {
    ui::CalibrationRequest request;
    request.data = {{"", sampleDataPath("digits_calib.npy"), {}}};
    request.samples = samples;
    request.analyze = analyze;
    if (analyze) {
        request.evaluationData = {{"", sampleDataPath("digits_test.npy"), {}}};
        request.labelsPath = sampleDataPath("digits_test_labels.npy");
        request.evaluationSamples = 120;
    }
    return request;
}

void calibrateSampleNow(ui::ModelDocument& document, CalibrationMethod method, int64_t samples) {
    ui::CalibrationRequest request = sampleRequest(true, samples);
    request.config.method = method;
    const ui::CalibrationOutcome outcome = ui::runCalibrationJob(*document.model(), document.plan(), request, {}, {});
    QVERIFY2(outcome.status.isOk(), outcome.status.message().c_str());
    document.setCalibration(outcome.calibration);
    document.setAnalysis(AnalysisMode::Accumulated, outcome.accumulated);
    document.setAnalysis(AnalysisMode::Isolated, outcome.isolated);
}

bool saveSnapshot(QWidget* widget, const QDir& dir, const char* name) {
    const QString path = dir.filePath(QString::fromLatin1(name));
    if (!widget->grab().save(path)) return false;
    std::printf("%s\n", qPrintable(path));
    return true;
}

bool calibrateForSnapshot(ui::CalibrationRunner* runner, const QString& data, int timeoutMs) {
    QSignalSpy finished(runner, &ui::CalibrationRunner::finished);
    ui::CalibrationRequest request = sampleRequest(true, 256);
    if (!data.isEmpty()) {
        request = ui::CalibrationRequest{};
        request.data = {{"", data.toStdString(), {}}};
        request.analyze = false;
    }
    runner->start(request);
    return QTest::qWaitFor([&] { return !finished.isEmpty(); }, timeoutMs);
}

void selectForSnapshot(ui::MainWindow& window, const QString& select) {
    const Graph& graph = window.document()->model()->graph();
    int convs = 0;
    for (const Node& node : graph.nodes())
        if (select.isEmpty() ? node.opType == "Conv" && ++convs == 2 : node.name == select.toStdString())
            window.findChild<ui::GraphView*>()->selectNode(node.id);
}

}  // namespace ql::test
