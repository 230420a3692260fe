// quantlens: the desktop window.
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QTimer>

#include "ui/main_window.h"

namespace {

// The bundled sample: next to the installed binary's share folder, or in the source tree for a build.
QString bundledSampleModel() {
    const QStringList candidates = {
        QCoreApplication::applicationDirPath() + QStringLiteral("/../share/quantlens/samples/digits_cnn.onnx"),
        QStringLiteral(QL_SOURCE_DIR "/resources/samples/digits_cnn.onnx"),
    };
    for (const QString& c : candidates)
        if (QFileInfo::exists(c)) return QFileInfo(c).canonicalFilePath();
    return {};
}

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("QuantLens"));
    QApplication::setOrganizationName(QStringLiteral("QuantLens"));
    QApplication::setApplicationVersion(QStringLiteral(QL_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Put ONNX models on TensorRT in INT8"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("model"), QStringLiteral("ONNX model to open"));
    QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                  QStringLiteral("Save a PNG of the window once the model is shown, then quit."),
                                  QStringLiteral("file"));
    parser.addOption(screenshot);
    parser.process(app);

    ql::ui::MainWindow window;
    window.show();
    QString model = parser.positionalArguments().value(0);
    if (model.isEmpty()) model = bundledSampleModel();
    if (parser.isSet(screenshot)) {
        const QString file = parser.value(screenshot);
        auto grabAndQuit = [&window, file] {
            QTimer::singleShot(500, &window, [&window, file] {
                window.grab().save(file);
                QApplication::quit();
            });
        };
        QObject::connect(&window, &ql::ui::MainWindow::modelOpened, &window, grabAndQuit);
        QObject::connect(&window, &ql::ui::MainWindow::modelFailedToOpen, &window, grabAndQuit);
        if (model.isEmpty()) grabAndQuit();
    }
    if (!model.isEmpty()) window.openModel(model);
    return app.exec();
}
