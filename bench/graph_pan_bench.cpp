// Frame times of the graph view while panning and zooming (issue 29: 60 fps, 16.7 ms a frame, at every size). Opens
// a MainWindow on MODEL at 1600x1000, waits for the model's graph (not its loading preview), then times synchronous
// repaints of the view, one per step, in three scenes: the opening view panned 40 px a step, zoom steps in and out
// around the centre, and the same pan with the first block expanded (a thousand operators on screen). Prints the
// median, 95th percentile and worst frame of each.
//
//   xvfb-run -a -s '-screen 0 1600x1000x24' build/bench/bench_graph_pan MODEL [--steps 120]
#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QScrollBar>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

#include "ui/graph/graph_node_item.h"
#include "ui/graph/graph_view.h"
#include "ui/main_window.h"

namespace {

struct FrameTimes {
    std::vector<double> ms;
    double at(double p) const {
        std::vector<double> sorted = ms;
        std::sort(sorted.begin(), sorted.end());
        const size_t i =
            std::min(sorted.size() - 1, static_cast<size_t>(p / 100.0 * static_cast<double>(sorted.size())));
        return sorted[i];
    }
};

// Runs `step(i)` then a synchronous repaint of the view, `steps` times.
FrameTimes timeFrames(ql::ui::GraphView& view, int steps, const std::function<void(int)>& step) {
    FrameTimes times;
    QElapsedTimer clock;
    for (int i = 0; i < steps; ++i) {
        clock.start();
        step(i);
        view.viewport()->repaint();
        times.ms.push_back(static_cast<double>(clock.nsecsElapsed()) / 1e6);
    }
    return times;
}

void print(const char* scene, const ql::ui::GraphView& view, const FrameTimes& times) {
    std::printf("%-34s %6lld items  median %6.2f ms  p95 %6.2f ms  worst %6.2f ms\n", scene,
                static_cast<long long>(view.scene()->items().size()), times.at(50), times.at(95), times.at(100));
}

// Pans right then down, 40 px a step, turning back at the edges.
void panStep(ql::ui::GraphView& view, int i) {
    QScrollBar* bar = i % 2 == 0 ? view.horizontalScrollBar() : view.verticalScrollBar();
    const int direction = (i / 20) % 2 == 0 ? 1 : -1;
    bar->setValue(std::clamp(bar->value() + 40 * direction, bar->minimum(), bar->maximum()));
}

void zoomStep(ql::ui::GraphView& view, int i) {
    const double factor = (i / 10) % 2 == 0 ? 1.1 : 1.0 / 1.1;
    view.scale(factor, factor);
}

bool waitFor(const std::function<bool()>& done, int timeoutMs) {
    QElapsedTimer clock;
    clock.start();
    while (!done() && clock.elapsed() < timeoutMs) QApplication::processEvents(QEventLoop::AllEvents, 50);
    return done();
}

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("model"), QStringLiteral("ONNX model"));
    QCommandLineOption stepsOption(QStringLiteral("steps"), QStringLiteral("frames per scene"), QStringLiteral("n"),
                                   QStringLiteral("120"));
    parser.addOption(stepsOption);
    parser.process(app);
    if (parser.positionalArguments().size() != 1) parser.showHelp(2);
    const int steps = std::max(10, parser.value(stepsOption).toInt());

    ql::ui::MainWindow window;
    window.resize(1600, 1000);
    window.show();
    auto* view = window.findChild<ql::ui::GraphView*>();
    bool opened = false;
    QObject::connect(&window, &ql::ui::MainWindow::modelOpened, [&] { opened = true; });
    window.openModel(parser.positionalArguments().front());
    auto laidOut = [&] {
        return opened && !view->isPreview() && view->graphScene()->layout() && !view->graphScene()->isLayoutPending();
    };
    if (!waitFor(laidOut, 600000)) {
        std::fprintf(stderr, "the model did not open\n");
        return 1;
    }
    waitFor([] { return false; }, 500);  // let the window settle (docks, first paint)

    print("pan, opening view", *view, timeFrames(*view, steps, [&](int i) { panStep(*view, i); }));
    print("zoom in/out, opening view", *view, timeFrames(*view, steps, [&](int i) { zoomStep(*view, i); }));
    // The first block opened: a thousand operators on screen.
    ql::ui::GraphScene* scene = view->graphScene();
    for (const ql::ui::GraphNodeItem* item : scene->nodeItems()) {
        if (item->kind() != ql::ui::VisibleKind::Block) continue;
        scene->expandScope(scene->layout()->graph.nodes[static_cast<size_t>(item->index())].scope);
        break;
    }
    if (!waitFor([&] { return scene->layout() && !scene->isLayoutPending(); }, 600000)) return 1;
    waitFor([] { return false; }, 300);
    view->resetTransform();
    print("pan, first block expanded", *view, timeFrames(*view, steps, [&](int i) { panStep(*view, i); }));
    view->fitToWindow();
    print("zoom in/out from fit, expanded", *view, timeFrames(*view, steps, [&](int i) { zoomStep(*view, i); }));
    return 0;
}
