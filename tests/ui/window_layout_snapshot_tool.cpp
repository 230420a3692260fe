// Renders the main window at a given size, as a first run arranges it, to a PNG, for looking at the layout (not a
// test): the sample calibrated with the error analysis (or --model M.onnx calibrated on --data D.npy, without it),
// a node selected (the second Conv, or --select NODE), the precision table scrolled right by --scroll pixels.
// docs/window-1280x800.png is `ql_window_layout_snapshot docs/window-1280x800.png`.
//   QT_QPA_PLATFORM=offscreen ql_window_layout_snapshot OUT.png [--size 1280x800] [--dark] [--model M --data D]
//       [--select NODE] [--scroll PIXELS]
#include <QApplication>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QtTest>
#include <cstdio>

#include "tests/ui/calibration/calibration_test_support.h"
#include "ui/calibration/calibration_controller.h"
#include "ui/calibration/calibration_runner.h"
#include "ui/graph/graph_view.h"
#include "ui/main_window.h"
#include "ui/panels/precision_panel.h"
#include "ui/theme.h"

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    // A first run: no window state, column choice or legend state of the user's.
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("QuantLensTest"));
    QCoreApplication::setApplicationName(QStringLiteral("window_layout_snapshot"));
    QSettings().clear();
    const QStringList args = QApplication::arguments();
    if (args.size() < 2) {
        std::fprintf(stderr, "usage: ql_window_layout_snapshot OUT.png [--size WxH] [--model M --data D]\n");
        return 2;
    }
    const auto option = [&](const char* name) {
        const qsizetype at = args.indexOf(QLatin1String(name));
        return at > 0 && at + 1 < args.size() ? args[at + 1] : QString();
    };
    ql::ui::applyTheme(args.contains(QStringLiteral("--dark")) ? ql::ui::Theme::Dark : ql::ui::Theme::Light);
    const QStringList size = option("--size").split(QLatin1Char('x'));
    const QString model = option("--model"), data = option("--data"), select = option("--select");

    ql::ui::MainWindow window;
    window.resize(size.size() == 2 ? QSize(size[0].toInt(), size[1].toInt()) : QSize(1280, 800));
    window.show();
    QSignalSpy opened(&window, &ql::ui::MainWindow::modelOpened);
    window.openModel(model.isEmpty() ? ql::test::sampleModelPath() : model);
    if (!QTest::qWaitFor([&] { return !opened.isEmpty(); }, 60000)) return 1;
    if (model.isEmpty() || !data.isEmpty()) {
        auto* runner = window.findChild<ql::ui::CalibrationController*>()->runner();
        if (!ql::test::calibrateForSnapshot(runner, data, 300000)) return 1;
    }
    ql::test::selectForSnapshot(window, select);
    QTableView* table = window.findChild<ql::ui::PrecisionPanel*>()->view();
    table->horizontalScrollBar()->setValue(option("--scroll").toInt());
    QTest::qWait(800);
    if (!window.grab().save(args[1])) return 1;
    std::printf("%s\n", qPrintable(args[1]));
    return 0;
}
