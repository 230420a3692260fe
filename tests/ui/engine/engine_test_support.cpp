#include "tests/ui/engine/engine_test_support.h"

#include <QSignalSpy>
#include <QtTest>

#include "tests/ui/calibration/calibration_test_support.h"
#include "ui/engine/engine_controller.h"
#include "ui/graph/graph_view.h"
#include "ui/main_window.h"

namespace ql::test {

QString engineFixture(const char* file) {
    return QStringLiteral(QL_TEST_DATA_DIR "/engine/") + QString::fromLatin1(file);
}

QStringList engineFixtureReport() {
    return {engineFixture("digits_int8.layers.json"), engineFixture("digits_int8.profile.json")};
}

bool openSampleAndWait(ui::MainWindow& window) {
    auto* view = window.findChild<ui::GraphView*>();
    QSignalSpy opened(&window, &ui::MainWindow::modelOpened);
    QSignalSpy laidOut(view, &ui::GraphView::layoutApplied);
    window.openModel(sampleModelPath());
    return QTest::qWaitFor([&] { return !opened.isEmpty() && !laidOut.isEmpty(); }, 30000);
}

bool importEngineAndWait(ui::MainWindow& window, const QStringList& paths) {
    QSignalSpy finished(window.engine(), &ui::EngineController::importFinished);
    if (!window.engine()->importFiles(paths)) return false;
    if (!QTest::qWaitFor([&] { return !finished.isEmpty(); }, 30000)) return false;
    return finished.first().first().toBool();
}

NodeId nodeNamed(const ui::MainWindow& window, const char* name) {
    const auto id = window.document()->model()->graph().findNode(name);
    return id ? *id : kNoId;
}

}  // namespace ql::test
