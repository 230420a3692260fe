// Renders the Layer Error plot of a generated 300-layer model, calibrated and measured for real, to a PNG, for
// looking at it (not a test): docs/layer-error-300.png.
//   QT_QPA_PLATFORM=offscreen ql_layer_error_snapshot OUT.png [--dark] [--worst N] [--worst-first]
//       [--size WxH] [--zoom FIRST:LAST]
// The model: 75 residual blocks x [N, 16] -> MatMul -> Add (bias from a Constant) -> Relu -> Add (the block's
// input), named as exporters name them (/encoder/stage2/block40/fc/MatMul): 300 layers and 75 Constants.
#include <qcustomplot.h>
#include <QApplication>
#include <QDir>
#include <QtTest>
#include <cmath>
#include <cstdio>

#include "core/data/npy.h"
#include "core/quant/default_placement.h"
#include "tests/support/model_builder.h"
#include "tests/ui/calibration/calibration_test_support.h"
#include "ui/calibration/calibration_job.h"
#include "ui/model_document.h"
#include "ui/plots/layer_error_plot.h"
#include "ui/theme.h"

namespace {

constexpr int kBlocks = 75, kWidth = 16, kSamples = 32;

std::string writeResidualChain(const ql::test::TempDir& dir) {
    using ql::DataType;
    ql::test::ModelBuilder b;
    b.input("x", DataType::Float, {-1, kWidth});
    std::string previous = "x";
    // Weights of variance 2 / width keep the activations' scale along the residual chain (He initialisation).
    const float spread = std::sqrt(6.0f / kWidth);
    for (int i = 0; i < kBlocks; ++i) {
        const std::string scope = "/encoder/stage" + std::to_string(i / 25) + "/block" + std::to_string(i) + "/",
                          id = std::to_string(i);
        b.initializer("w" + id, {kWidth, kWidth},
                      ql::test::seededFloats(kWidth * kWidth, static_cast<uint32_t>(100 + i), -spread, spread));
        std::vector<double> bias(kWidth);
        for (int c = 0; c < kWidth; ++c) bias[static_cast<size_t>(c)] = 0.01 * ((c * 7 + i) % 11);
        b.node("Constant", {}, {"b" + id}, scope + "fc/bias")
            .tensor("value", ql::test::makeTensor("b" + id, DataType::Float, {kWidth}, bias));
        b.node("MatMul", {previous, "w" + id}, {"m" + id}, scope + "fc/MatMul");
        b.node("Add", {"m" + id, "b" + id}, {"a" + id}, scope + "fc/Add");
        b.node("Relu", {"a" + id}, {"r" + id}, scope + "Relu");
        b.node("Add", {previous, "r" + id}, {"s" + id}, scope + "residual/Add");
        previous = "s" + id;
    }
    b.output(previous);
    const std::string path = dir.file("residual_chain_300.onnx");
    b.save(path);
    return path;
}

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    const QStringList args = QApplication::arguments();
    if (args.size() < 2) {
        std::fprintf(stderr,
                     "usage: ql_layer_error_snapshot OUT.png [--dark] [--worst N] [--worst-first] "
                     "[--size WxH] [--zoom FIRST:LAST]\n");
        return 2;
    }
    ql::ui::applyTheme(args.contains(QStringLiteral("--dark")) ? ql::ui::Theme::Dark : ql::ui::Theme::Light);
    const auto option = [&](const char* name, const char* fallback) {
        const qsizetype at = args.indexOf(QLatin1String(name));
        return at > 0 && at + 1 < args.size() ? args[at + 1] : QString::fromLatin1(fallback);
    };

    ql::test::TempDir dir;
    const auto loaded = ql::ui::ModelDocument::load(QString::fromStdString(writeResidualChain(dir)));
    if (!loaded->model) {
        std::fprintf(stderr, "%s\n", qPrintable(loaded->error));
        return 1;
    }
    ql::ui::ModelDocument document;
    document.replaceModel(*loaded);
    const std::string data = dir.file("x.npy");
    if (!ql::writeNpy(data, ql::Tensor::fromVector(ql::DataType::Float, {kSamples, kWidth},
                                                   ql::test::seededFloats(kSamples * kWidth, 9))))
        return 1;
    ql::ui::CalibrationRequest request;
    request.data = {{"", data, {}}};
    request.evaluationData = request.data;
    const ql::Model& model = *document.model();
    const ql::ui::CalibrationOutcome outcome =
        ql::ui::runCalibrationJob(model, ql::defaultPrecisionPlan(model.graph()), request, {}, {});
    if (!outcome.status.isOk()) {
        std::fprintf(stderr, "%s\n", outcome.status.message().c_str());
        return 1;
    }
    document.setAnalysis(ql::AnalysisMode::Accumulated, outcome.accumulated);
    document.setAnalysis(ql::AnalysisMode::Isolated, outcome.isolated);

    ql::ui::LayerErrorPlot plot;
    plot.setDocument(&document);
    plot.setWorstCount(option("--worst", "50").toInt());
    if (args.contains(QStringLiteral("--worst-first"))) plot.setOrder(ql::ui::LayerErrorPlot::Order::WorstFirst);
    const QStringList size = option("--size", "1000x520").split(QLatin1Char('x'));
    plot.resize(size.value(0).toInt(), size.value(1).toInt());
    plot.show();
    QTest::qWait(200);
    if (const QStringList zoom = option("--zoom", "").split(QLatin1Char(':')); zoom.size() == 2)
        plot.customPlot()->xAxis->setRange(zoom[0].toDouble() - 0.7, zoom[1].toDouble() + 0.7);
    plot.customPlot()->replot();
    QTest::qWait(200);
    std::printf("%d layers measured, %d shown\n", plot.measuredCount(), plot.positionCount());
    return ql::test::saveSnapshot(&plot, QFileInfo(args[1]).absoluteDir(), qPrintable(QFileInfo(args[1]).fileName()))
               ? 0
               : 1;
}
