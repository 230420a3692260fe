#pragma once
// What the window tests share: opening a model (or project) and waiting for it, and a tiny model that is nothing of
// the sample.
#include <QSignalSpy>
#include <QtTest>

#include "tests/support/model_builder.h"
#include "ui/main_window.h"

namespace ql::test {

// Opens `path` in `window` (`model` relocates a project's model) and waits until it opened or failed to. True when it
// opened; otherwise `error`, when given, gets the reason the window gave.
inline bool openAndWait(ui::MainWindow& window, const QString& path, QString* error = nullptr,
                        const QString& model = {}) {
    QSignalSpy opened(&window, &ui::MainWindow::modelOpened);
    QSignalSpy failed(&window, &ui::MainWindow::modelFailedToOpen);
    window.openModel(path, model);
    const bool done = QTest::qWaitFor([&] { return opened.count() + failed.count() > 0; }, 20000);
    if (error && failed.count() > 0) *error = failed.at(0).at(1).toString();
    return done && opened.count() == 1;
}

// x [1, 4] -> Relu "relu" -> y.
inline ModelBuilder tinyModel() {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 4});
    b.node("Relu", {"x"}, {"y"}, "relu");
    b.output("y");
    return b;
}

// tinyModel(), written as tiny.onnx in `dir`.
inline QString writeTinyModel(const TempDir& dir) {
    const std::string path = dir.file("tiny.onnx");
    tinyModel().save(path);
    return QString::fromStdString(path);
}

}  // namespace ql::test
