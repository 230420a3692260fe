// Small items a new user's walk-through of the window found, one test each, named for what the window does now.
#include <QApplication>
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
#include "ui/graph/graph_search_bar.h"
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
};

namespace {

const QString kSamples = QStringLiteral(QL_SOURCE_DIR "/resources/samples");

bool openAndWait(ui::MainWindow& window, const QString& path) {
    QSignalSpy opened(&window, &ui::MainWindow::modelOpened);
    QSignalSpy failed(&window, &ui::MainWindow::modelFailedToOpen);
    window.openModel(path);
    return QTest::qWaitFor([&] { return opened.count() + failed.count() > 0; }, 10000) && opened.count() == 1;
}

bool showSample(ui::MainWindow& window) {
    window.resize(1280, 800);
    window.show();
    return QTest::qWaitForWindowExposed(&window) && openAndWait(window, test::sampleModelPath());
}

// x [1, 4] -> Relu -> y: nothing of the sample.
QString writeTinyModel(const test::TempDir& dir) {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {1, 4});
    b.node("Relu", {"x"}, {"y"}, "relu");
    b.output("y");
    const std::string path = dir.file("tiny.onnx");
    b.save(path);
    return QString::fromStdString(path);
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

QTEST_MAIN(WindowWalkthroughTest)
#include "window_walkthrough_test.moc"
