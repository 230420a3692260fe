// The window on a model after View > Fit to Window, with the overview (minimap), as a PNG, and the times it took
// (for looking, not a test): docs/overview-100k.png is this tool on bench/tools/make_scoped_graph.py 100000.
//   QT_QPA_PLATFORM=offscreen ql_overview_snapshot MODEL.onnx OUT.png [--size 1600x1000] [--dark] [--no-fit]
#include <QApplication>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QtTest>
#include <cstdio>

#include "ui/graph/graph_fit.h"
#include "ui/graph/graph_minimap.h"
#include "ui/graph/graph_view.h"
#include "ui/main_window.h"
#include "ui/theme.h"

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    const QStringList args = QApplication::arguments();
    if (args.size() < 3) {
        std::fprintf(stderr, "usage: ql_overview_snapshot MODEL.onnx OUT.png [--size WxH] [--dark] [--no-fit]\n");
        return 2;
    }
    ql::ui::applyTheme(args.contains(QStringLiteral("--dark")) ? ql::ui::Theme::Dark : ql::ui::Theme::Light);
    QSize size(1600, 1000);
    if (const qsizetype at = args.indexOf(QStringLiteral("--size")); at > 0 && at + 1 < args.size()) {
        const QStringList wh = args[at + 1].split(QLatin1Char('x'));
        size = QSize(wh.value(0).toInt(), wh.value(1).toInt());
    }
    ql::ui::MainWindow window;
    window.resize(size);
    window.show();
    QElapsedTimer timer;
    timer.start();
    QSignalSpy opened(&window, &ql::ui::MainWindow::modelOpened);
    window.openModel(args[1]);
    auto* view = window.findChild<ql::ui::GraphView*>();
    const auto laidOut = [view] { return view->graphScene()->layout() && !view->graphScene()->isLayoutPending(); };
    if (!QTest::qWaitFor([&] { return !opened.isEmpty() && laidOut(); }, 600000)) return 1;
    std::printf("opened and laid out: %lld ms, %zu boxes\n", timer.elapsed(),
                view->graphScene()->layout()->graph.nodes.size());
    if (!args.contains(QStringLiteral("--no-fit"))) {
        timer.restart();
        view->fitToWindow();
        const qint64 blocked = timer.elapsed();  // the GUI thread's part: the layouts run in the background
        if (!QTest::qWaitFor([&] { return !view->fit()->isFitting() && laidOut(); }, 600000)) return 1;
        const ql::ui::GraphLayout& layout = *view->graphScene()->layout();
        std::printf("fit: %lld ms (%lld ms of it in fitToWindow()), %zu boxes in %d columns, zoom %.3f\n",
                    timer.elapsed(), blocked, layout.graph.nodes.size(), layout.columns, view->zoomFactor());
    }
    view->minimap()->renderIfChanged();
    std::printf("minimap render: %.1f ms\n", view->minimap()->lastRenderMs());
    QTest::qWait(300);
    return window.grab().save(args[2]) ? 0 : 1;
}
