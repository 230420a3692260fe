// Small items a new user's walk-through of the window found, one test each, named for what the window does now.
#include <QApplication>
#include <QContextMenuEvent>
#include <QFileDialog>
#include <QLineEdit>
#include <QMenu>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTimer>
#include <QWindow>
#include <QtTest>
#include <fstream>
#include <functional>
#include <sstream>

#include "tests/support/model_builder.h"
#include "tests/ui/calibration/calibration_test_support.h"
#include "tests/ui/window_test_util.h"
#include "ui/graph/graph_node_item.h"
#include "ui/graph/graph_search_bar.h"
#include "ui/graph/graph_view.h"
#include "ui/import_controller.h"
#include "ui/main_window.h"
#include "ui/model_document.h"
#include "ui/project_controller.h"

using namespace ql;

class WindowWalkthroughTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void titleNamesTheProjectAndTheModel();
    void importCalibrationOffersProjects();
    void windowsTrtexecScriptSaysTheWindowWroteIt();
    void exportPlanSuggestsTheModelsName();
    void openingAnotherModelClearsTheSearch();
    void contextMenuOnEmptySpaceHasNoPrecisionActions();
};

namespace {

using test::openAndWait;
using test::writeTinyModel;

const QString kSamples = QStringLiteral(QL_SOURCE_DIR "/resources/samples");

bool showSample(ui::MainWindow& window) {
    window.resize(1280, 800);
    window.show();
    return QTest::qWaitForWindowExposed(&window) && openAndWait(window, test::sampleModelPath());
}

std::string readText(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// Runs `open`, which shows a file dialog, hands the dialog to `inspect` and cancels it. False when none showed.
bool inspectFileDialog(const std::function<void()>& open, const std::function<void(QFileDialog&)>& inspect) {
    bool shown = false;
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, [&] {
        for (QWidget* widget : QApplication::topLevelWidgets()) {
            auto* dialog = qobject_cast<QFileDialog*>(widget);
            if (!dialog || !dialog->isVisible()) continue;
            shown = true;
            inspect(*dialog);
            dialog->reject();
        }
    });
    poll.start(20);
    open();
    QTest::qWait(50);
    return shown;
}

// The texts of the context menu the graph view shows at `at` (viewport coordinates).
QStringList contextMenuEntries(ui::GraphView& view, QPoint at) {
    QStringList entries;
    QTimer::singleShot(0, [&] {
        auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
        if (!menu) return;
        for (QAction* action : menu->actions())
            if (action->isEnabled() && !action->isSeparator()) entries << action->text();
        menu->close();
    });
    QContextMenuEvent event(QContextMenuEvent::Mouse, at, view.viewport()->mapToGlobal(at));
    QApplication::sendEvent(view.viewport(), &event);
    return entries;
}

// A point of the view's viewport with no item under it, or (-1, -1).
QPoint emptyPoint(const ui::GraphView& view) {
    const QRect area = view.viewport()->rect();
    for (int y = area.top() + 4; y < area.bottom(); y += 16)
        for (int x = area.left() + 4; x < area.right(); x += 16)
            if (!view.itemAt(QPoint(x, y))) return {x, y};
    return {-1, -1};
}

bool hasPrecisionAction(const QStringList& entries) {
    for (const QString& entry : entries)
        if (entry.startsWith(QStringLiteral("Set to ")) || entry.startsWith(QStringLiteral("Cycle precision")))
            return true;
    return false;
}

}  // namespace

void WindowWalkthroughTest::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("QuantLensTest"));
    QCoreApplication::setApplicationName(QStringLiteral("window_walkthrough_test"));
}

// The title named the model only, also with a project open or just saved.
void WindowWalkthroughTest::titleNamesTheProjectAndTheModel() {
    test::TempDir dir;
    const QString projectPath = QString::fromStdString(dir.file("digits.qlproj"));
    {
        ui::MainWindow window;
        QVERIFY(showSample(window));
        QCOMPARE(window.windowTitle(), QStringLiteral("digits_cnn.onnx[*] - QuantLens"));
        QVERIFY(window.project()->saveProjectAs(projectPath));  // nothing modified: only the project path changes
        QCOMPARE(window.windowTitle(), QStringLiteral("digits.qlproj[*] - digits_cnn.onnx - QuantLens"));
        QVERIFY(!window.isWindowModified());
        window.document()->setRequestedPrecision({0}, Precision::Fp32);
        QVERIFY(window.isWindowModified());
        QCOMPARE(window.windowHandle()->title(), QStringLiteral("digits.qlproj* - digits_cnn.onnx - QuantLens"));
        QVERIFY(window.project()->saveProjectAs(projectPath));
        QVERIFY(!window.isWindowModified());
    }
    ui::MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, projectPath));
    QCOMPARE(window.windowTitle(), QStringLiteral("digits.qlproj[*] - digits_cnn.onnx - QuantLens"));
    QCOMPARE(window.windowHandle()->title(), QStringLiteral("digits.qlproj - digits_cnn.onnx - QuantLens"));
}

// `quantlens-cli --calib PROJECT.qlproj` and the import read a project's calibration; the dialog hid projects.
void WindowWalkthroughTest::importCalibrationOffersProjects() {
    ui::MainWindow window;
    QVERIFY(showSample(window));
    QAction* importCalibration = window.importer()->importMenu()->actions().value(0);
    QVERIFY(importCalibration && importCalibration->isEnabled());
    QStringList filters;
    QVERIFY(inspectFileDialog([importCalibration] { importCalibration->trigger(); },
                              [&filters](QFileDialog& dialog) { filters = dialog.nameFilters(); }));
    QVERIFY(!filters.isEmpty());
    for (const char* pattern : {"*.json", "*.cache", "*.calib", "*.txt", "*.onnx", "*.qlproj"})
        QVERIFY2(filters.front().contains(QLatin1String(pattern)), qPrintable(filters.front()));
    QVERIFY2(filters.filter(QStringLiteral("QuantLens project (*.qlproj)")).size() == 1,
             qPrintable(filters.join(QStringLiteral(";;"))));
    QCOMPARE(filters.back(), QStringLiteral("All files (*)"));
}

// The window's trtexec.sh said "Written by quantlens-cli".
void WindowWalkthroughTest::windowsTrtexecScriptSaysTheWindowWroteIt() {
    ui::MainWindow window;
    QVERIFY(openAndWait(window, test::sampleModelPath()));
    test::calibrateSampleNow(*window.document());
    test::TempDir dir;
    QSignalSpy exported(window.project(), &ui::ProjectController::exported);
    window.project()->exportTo(QString::fromStdString(dir.file("digits.qdq.onnx")));
    QVERIFY(QTest::qWaitFor([&] { return exported.count() == 1; }, 30000));
    QVERIFY(exported.at(0).at(0).toBool());
    const std::string script = readText(dir.file("digits.qdq.trtexec.sh"));
    QVERIFY2(script.find("Written by the QuantLens window.") != std::string::npos, script.c_str());
    QVERIFY2(script.find("quantlens-cli") == std::string::npos, script.c_str());
}

// File > Export Plan suggested "plan.json", whatever the model.
void WindowWalkthroughTest::exportPlanSuggestsTheModelsName() {
    ui::MainWindow window;
    QVERIFY(showSample(window));
    QAction* exportPlan = window.importer()->exportPlanAction();
    QVERIFY(exportPlan->isEnabled());
    QString suggested;
    QVERIFY(inspectFileDialog([exportPlan] { exportPlan->trigger(); },
                              [&suggested](QFileDialog& dialog) { suggested = dialog.selectedFiles().value(0); }));
    QCOMPARE(suggested, kSamples + QStringLiteral("/digits_cnn.plan.json"));
}

// The search text stayed in the box for the next model, with no count beside it until Enter.
void WindowWalkthroughTest::openingAnotherModelClearsTheSearch() {
    test::TempDir dir;
    ui::MainWindow window;
    QVERIFY(showSample(window));
    auto* search = window.findChild<ui::GraphSearchBar*>();
    QVERIFY(search);
    QTest::keyClicks(search->lineEdit(), QStringLiteral("Conv"));
    QTest::keyClick(search->lineEdit(), Qt::Key_Return);
    QVERIFY2(QRegularExpression(QStringLiteral("^1 of \\d+$")).match(search->countText()).hasMatch(),
             qPrintable(search->countText()));
    QVERIFY(openAndWait(window, writeTinyModel(dir)));
    QCOMPARE(search->lineEdit()->text(), QString());
    QCOMPARE(search->countText(), QString());
}

// A right click on empty space offered Set to INT8/FP16/FP32 for the selection, though no node was under the mouse.
void WindowWalkthroughTest::contextMenuOnEmptySpaceHasNoPrecisionActions() {
    ui::MainWindow window;
    QVERIFY(showSample(window));
    auto* view = window.findChild<ui::GraphView*>();
    QVERIFY(
        QTest::qWaitFor([&] { return view->graphScene()->layout() && !view->graphScene()->isLayoutPending(); }, 60000));
    view->selectNode(0);
    QTest::qWait(50);
    QCOMPARE(view->selectedNodes(), QList<NodeId>{0});
    const QPoint empty = emptyPoint(*view);
    QVERIFY(empty != QPoint(-1, -1));
    const QStringList emptyEntries = contextMenuEntries(*view, empty);
    QVERIFY2(!hasPrecisionAction(emptyEntries), qPrintable(emptyEntries.join(QStringLiteral(", "))));
    QVERIFY2(emptyEntries.contains(QStringLiteral("Fit to window")), qPrintable(emptyEntries.join(", ")));
    // On a node the menu stays as it was: its precision actions, for the node under the mouse.
    ui::GraphNodeItem* item = view->graphScene()->itemForNode(0);
    QVERIFY(item);
    const QPoint onNode = view->mapFromScene(item->mapToScene(item->boxRect().center()));
    const QStringList nodeEntries = contextMenuEntries(*view, onNode);
    QVERIFY2(nodeEntries.contains(QStringLiteral("Set to INT8")) &&
                 nodeEntries.contains(QStringLiteral("Cycle precision (FP32, FP16, INT8)")),
             qPrintable(nodeEntries.join(QStringLiteral(", "))));
}

QTEST_MAIN(WindowWalkthroughTest)
#include "window_walkthrough_test.moc"
