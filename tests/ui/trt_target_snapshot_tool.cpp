// Renders the main window on the bundled sample with a TensorRT target chosen through its menu, to a PNG for
// looking at the menu and the status bar (not a test). With --menu the Quantize menu and its TensorRT Target
// submenu are open, and the whole screen is grabbed (the popups are windows of their own).
//   QT_QPA_PLATFORM=offscreen ql_trt_target_snapshot OUT.png [--trt 8.6|10|10-weak|11] [--menu]
#include <QAction>
#include <QApplication>
#include <QMenu>
#include <QMenuBar>
#include <QScreen>
#include <QSignalSpy>
#include <QtTest>
#include <cstdio>

#include "tests/ui/calibration/calibration_test_support.h"
#include "ui/main_window.h"
#include "ui/trt_target_controller.h"

namespace {

ql::TrtTarget targetArgument(const QStringList& args) {
    const QString name = args.value(args.indexOf(QStringLiteral("--trt")) + 1);
    if (name == QStringLiteral("8.6")) return {ql::TrtVersion::Trt86, ql::TrtTyping::Weak};
    if (name == QStringLiteral("10-weak")) return {ql::TrtVersion::Trt10, ql::TrtTyping::Weak};
    if (name == QStringLiteral("11")) return {ql::TrtVersion::Trt11, ql::TrtTyping::Strong};
    return {};
}

// Quantize open under its title, TensorRT Target open beside its entry, the chosen target highlighted.
void openTargetMenu(ql::ui::MainWindow& window, QAction* chosen) {
    auto* quantize = window.menuBar()->findChild<QMenu*>(QStringLiteral("QuantizeMenu"));
    QMenu* targets = window.trtTarget()->menu();
    const QRect title = window.menuBar()->actionGeometry(quantize->menuAction());
    quantize->popup(window.menuBar()->mapToGlobal(title.bottomLeft()));
    QTest::qWait(200);
    quantize->setActiveAction(targets->menuAction());
    const QRect entry = quantize->actionGeometry(targets->menuAction());
    targets->popup(quantize->mapToGlobal(entry.topRight()));
    targets->setActiveAction(chosen);
}

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    const QStringList args = QApplication::arguments();
    if (args.size() < 2) {
        std::fprintf(stderr, "usage: ql_trt_target_snapshot OUT.png [--trt 8.6|10|10-weak|11] [--menu]\n");
        return 2;
    }
    ql::ui::MainWindow window;
    window.resize(1600, 1000);
    window.move(0, 0);
    window.show();
    QSignalSpy opened(&window, &ql::ui::MainWindow::modelOpened);
    window.openModel(ql::test::sampleModelPath());
    if (!QTest::qWaitFor([&] { return !opened.isEmpty(); }, 30000)) return 1;
    QAction* chosen = window.trtTarget()->actionFor(targetArgument(args));
    chosen->trigger();
    QTest::qWait(800);
    if (args.contains(QStringLiteral("--menu"))) {
        openTargetMenu(window, chosen);
        QTest::qWait(500);
        if (!QGuiApplication::primaryScreen()->grabWindow(0).save(args[1])) return 1;
    } else if (!window.grab().save(args[1])) {
        return 1;
    }
    std::printf("%s\n", qPrintable(args[1]));
    return 0;
}
