// Renders the main window with the engine report fixture imported on the bundled sample (graph coloured by the
// engine's precision, or by time with --time; the engine dock raised; the FP16 Conv selected) to a PNG, for
// looking at it (not a test). --fit GPU then fits that GPU's profile to the report (File > Import > Fit GPU
// Profile...) and shows the window with the prediction it gives.
//   QT_QPA_PLATFORM=offscreen ql_engine_snapshot OUT.png [--time] [--dark] [--fit GPU]
#include <QApplication>
#include <QDockWidget>
#include <QSignalSpy>
#include <QtTest>
#include <cstdio>

#include "tests/ui/engine/engine_test_support.h"
#include "ui/engine/engine_controller.h"
#include "ui/engine/gpu_fit_controller.h"
#include "ui/graph/graph_view.h"
#include "ui/main_window.h"
#include "ui/theme.h"

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    const QStringList args = QApplication::arguments();
    if (args.size() < 2) {
        std::fprintf(stderr, "usage: ql_engine_snapshot OUT.png [--time] [--dark]\n");
        return 2;
    }
    ql::ui::applyTheme(args.contains(QStringLiteral("--dark")) ? ql::ui::Theme::Dark : ql::ui::Theme::Light);
    ql::ui::MainWindow window;
    window.resize(1600, 1000);
    window.show();
    if (!ql::test::openSampleAndWait(window) || !ql::test::importEngineAndWait(window)) return 1;
    window.engine()->setColoring(args.contains(QStringLiteral("--time")) ? ql::ui::NodeColoring::EngineTime
                                                                         : ql::ui::NodeColoring::EnginePrecision);
    auto* view = window.findChild<ql::ui::GraphView*>();
    view->selectNode(ql::test::nodeNamed(window, "/block/block.3/Conv"));
    view->fitToWindow();
    window.findChild<QDockWidget*>(QStringLiteral("EngineDock"))->raise();
    if (const int fit = args.indexOf(QStringLiteral("--fit")); fit > 0) {
        auto* controller = window.findChild<ql::ui::GpuFitController*>();
        QSignalSpy fitted(controller, &ql::ui::GpuFitController::fitted);
        if (!controller->fitFor(args.value(fit + 1)) || !QTest::qWaitFor([&] { return !fitted.isEmpty(); }, 30000))
            return 1;
    }
    QTest::qWait(800);
    if (!window.grab().save(args[1])) return 1;
    std::printf("%s\n", qPrintable(args[1]));
    return 0;
}
