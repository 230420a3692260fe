// The GUI thread's longest stall while a calibration runs in the background (issue 7: under 100 ms on
// ResNet-18). Opens a MainWindow on MODEL, starts a calibration of --samples samples (seeded random data in
// the shape of the model input, or --data FILE), and records the gaps between 10 ms QTimer heartbeats on the
// GUI thread from the start of the run until its results are drawn. Prints the longest gap and percentiles.
//
//   QT_QPA_PLATFORM=offscreen bench_gui_stall /work/models/resnet18.onnx [--samples 100] [--analyze]
//                                             [--data FILE.npy] [--threads N]
#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <random>

#include "core/data/npy.h"
#include "ui/calibration/calibration_controller.h"
#include "ui/calibration/calibration_runner.h"
#include "ui/main_window.h"
#include "ui/model_document.h"

namespace {

// Seeded N(0, 1) samples of the model's (first) input, batch axis = samples; empty on failure (printed).
std::string writeRandomData(const ql::Graph& graph, int64_t samples, const QString& folder) {
    const std::vector<ql::InputSpec> inputs = ql::inputSpecs(graph);
    if (inputs.size() != 1 || !inputs[0].hasShape || inputs[0].dtype != ql::DataType::Float) {
        std::fprintf(stderr, "random data needs one float input of known shape; give --data FILE.npy\n");
        return {};
    }
    ql::Shape shape{samples};
    for (size_t i = 1; i < inputs[0].dims.size(); ++i) {
        if (inputs[0].dims[i] <= 0) {
            std::fprintf(stderr, "input dim %zu is not fixed; give --data FILE.npy\n", i);
            return {};
        }
        shape.push_back(inputs[0].dims[i]);
    }
    int64_t count = 1;
    for (int64_t d : shape) count *= d;
    std::mt19937 random(20240607);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    std::vector<float> values(static_cast<size_t>(count));
    for (float& v : values) v = normal(random);
    const std::string path = (folder + QStringLiteral("/random.npy")).toStdString();
    const ql::Status written = ql::writeNpy(path, ql::Tensor::fromVector(ql::DataType::Float, shape, values));
    if (!written.isOk()) {
        std::fprintf(stderr, "%s\n", written.message().c_str());
        return {};
    }
    return path;
}

double percentile(std::vector<double> sorted, double p) {
    if (sorted.empty()) return 0.0;
    const size_t index =
        std::min(sorted.size() - 1, static_cast<size_t>(p / 100.0 * static_cast<double>(sorted.size())));
    return sorted[index];
}

}  // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    QCommandLineParser parser;
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("model"), QStringLiteral("ONNX model"));
    const QCommandLineOption samplesOption(QStringLiteral("samples"), QStringLiteral("Samples (default 100)"),
                                           QStringLiteral("n"), QStringLiteral("100"));
    const QCommandLineOption dataOption(QStringLiteral("data"), QStringLiteral("Data instead of random"),
                                        QStringLiteral("file"));
    const QCommandLineOption threadsOption(QStringLiteral("threads"), QStringLiteral("Worker threads (default 1)"),
                                           QStringLiteral("n"), QStringLiteral("1"));
    const QCommandLineOption analyzeOption(QStringLiteral("analyze"), QStringLiteral("Also run both analyses"));
    parser.addOptions({samplesOption, dataOption, threadsOption, analyzeOption});
    parser.process(app);
    if (parser.positionalArguments().size() != 1) parser.showHelp(2);

    ql::ui::MainWindow window;
    window.resize(1400, 900);
    window.show();
    QElapsedTimer loadClock;
    loadClock.start();
    bool opened = false, failedToOpen = false;
    QObject::connect(&window, &ql::ui::MainWindow::modelOpened, [&] { opened = true; });
    QObject::connect(&window, &ql::ui::MainWindow::modelFailedToOpen, [&](const QString&, const QString& message) {
        std::fprintf(stderr, "cannot open the model: %s\n", qPrintable(message));
        failedToOpen = true;
    });
    window.openModel(parser.positionalArguments().front());
    while (!opened && !failedToOpen) QApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
    if (failedToOpen) return 2;
    std::printf("model opened in %.2f s\n", static_cast<double>(loadClock.elapsed()) / 1000.0);

    const int64_t samples = parser.value(samplesOption).toLongLong();
    QTemporaryDir folder;
    std::string data = parser.value(dataOption).toStdString();
    if (data.empty()) data = writeRandomData(window.document()->model()->graph(), samples, folder.path());
    if (data.empty()) return 2;

    ql::ui::CalibrationRequest request;
    request.data = {{"", data, {}}};
    request.samples = samples;
    request.threads = parser.value(threadsOption).toInt();
    request.analyze = parser.isSet(analyzeOption);
    auto* runner = window.findChild<ql::ui::CalibrationController*>()->runner();

    std::vector<double> gaps;
    QElapsedTimer beat, run;
    QTimer heartbeat;
    heartbeat.setInterval(10);
    heartbeat.setTimerType(Qt::PreciseTimer);
    QObject::connect(&heartbeat, &QTimer::timeout, [&] {
        gaps.push_back(static_cast<double>(beat.nsecsElapsed()) / 1e6);
        beat.restart();
    });
    int exitCode = 0;
    auto stop = [&](int code) {
        exitCode = code;
        window.document()->markSaved();  // no "save changes?" prompt when the window closes
        // Keep beating a little longer: the plots redraw with the new results on the GUI thread.
        QTimer::singleShot(300, &app, &QApplication::quit);
    };
    QObject::connect(runner, &ql::ui::CalibrationRunner::finished, [&] { stop(0); });
    QObject::connect(runner, &ql::ui::CalibrationRunner::failed, [&](const QString& message) {
        std::fprintf(stderr, "calibration failed: %s\n", qPrintable(message));
        stop(1);
    });
    beat.start();
    run.start();
    heartbeat.start();
    if (!runner->start(request)) return 2;
    app.exec();
    const double seconds = static_cast<double>(run.elapsed()) / 1000.0;
    std::sort(gaps.begin(), gaps.end());
    std::printf("%s: %lld samples%s in %.2f s, %zu heartbeats (10 ms)\n",
                qPrintable(parser.positionalArguments().front()), static_cast<long long>(samples),
                request.analyze ? " + analysis" : "", seconds, gaps.size());
    std::printf("GUI thread gap between heartbeats: max %.1f ms, p50 %.1f ms, p90 %.1f ms, p99 %.1f ms\n",
                gaps.empty() ? 0.0 : gaps.back(), percentile(gaps, 50), percentile(gaps, 90), percentile(gaps, 99));
    return exitCode;
}
