// Small items a new user's walk-through of the window found, one test each, named for what the window does now.
#include <QSignalSpy>
#include <QStandardPaths>
#include <QWindow>
#include <QtTest>

#include "tests/support/model_builder.h"
#include "tests/ui/calibration/calibration_test_support.h"
#include "ui/main_window.h"
#include "ui/model_document.h"
#include "ui/project_controller.h"

using namespace ql;

class WindowWalkthroughTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void titleNamesTheProjectAndTheModel();
};

namespace {

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

QTEST_MAIN(WindowWalkthroughTest)
#include "window_walkthrough_test.moc"
