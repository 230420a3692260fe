#pragma once
// Shared by the panel tests: the bundled sample model, opening it in a window and waiting for the graph.
#include <QSignalSpy>
#include <QtTest>

#include "ui/graph/graph_view.h"
#include "ui/main_window.h"

namespace ql::test {

inline QString sampleModelPath() {
    return QStringLiteral(QL_SOURCE_DIR "/resources/samples/digits_cnn.onnx");
}

// Opens `path` and waits until the model is in the document and the graph is laid out.
inline bool openAndWait(ui::MainWindow& window, const QString& path) {
    QSignalSpy opened(&window, &ui::MainWindow::modelOpened);
    QSignalSpy failed(&window, &ui::MainWindow::modelFailedToOpen);
    window.openModel(path);
    if (!QTest::qWaitFor([&] { return opened.count() + failed.count() > 0; }, 10000) || opened.count() != 1)
        return false;
    auto* view = window.findChild<ui::GraphView*>();
    return view && QTest::qWaitFor(
                       [&] { return view->graphScene()->layout() && !view->graphScene()->isLayoutPending(); }, 60000);
}

}  // namespace ql::test
