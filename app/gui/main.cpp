// quantlens: the desktop window.
#include <unistd.h>
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QIcon>
#include <QSettings>
#include <QTextStream>
#include <QTimer>
#include <fstream>
#include <memory>
#include <sstream>

#include "ui/graph/graph_view.h"
#include "ui/main_window.h"
#include "ui/project_controller.h"
#include "ui/theme.h"

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

// Milliseconds since this process started (from /proc: the kernel's start time, so loading the shared
// libraries before main() counts too), or -1 when unknown.
double millisecondsSinceProcessStart() {
    std::ifstream statFile("/proc/self/stat");
    std::string stat((std::istreambuf_iterator<char>(statFile)), {});
    const size_t end = stat.rfind(')');  // the command name may contain spaces
    std::ifstream uptimeFile("/proc/uptime");
    double uptime = 0.0;
    if (end == std::string::npos || !(uptimeFile >> uptime)) return -1.0;
    std::istringstream fields(stat.substr(end + 2));
    std::string field;
    for (int i = 3; i <= 22 && fields >> field; ++i) {
        if (i == 22) return (uptime - std::stod(field) / static_cast<double>(sysconf(_SC_CLK_TCK))) * 1000.0;
    }
    return -1.0;
}

// --first-paint: prints the time from launch until the graph of the model is laid out and painted, then quits. A big
// model's structure is painted before its types and precisions are known (ModelLoader::previewReady): then both
// times are printed.
void reportFirstPaint(ql::ui::MainWindow& window) {
    auto* view = window.findChild<ql::ui::GraphView*>();
    auto firstPrinted = std::make_shared<bool>(false);
    QObject::connect(view, &ql::ui::GraphView::layoutApplied, &window, [view, firstPrinted] {
        view->viewport()->repaint();
        const qint64 ms = qRound(millisecondsSinceProcessStart());
        QTextStream out(stdout);
        if (!*firstPrinted) {
            out << "first painted graph: " << ms << " ms after launch"
                << (view->isPreview() ? " (its structure, while shape inference and precisions run)" : "") << Qt::endl;
            *firstPrinted = true;
        }
        if (view->isPreview()) return;
        if (view->graphScene()->hasGraph()) out << "graph with precisions: " << ms << " ms after launch" << Qt::endl;
        QApplication::quit();
    });
    QObject::connect(&window, &ql::ui::MainWindow::modelFailedToOpen, &window, [] { QApplication::exit(2); });
}

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("QuantLens"));
    QApplication::setOrganizationName(QStringLiteral("QuantLens"));
    QApplication::setApplicationVersion(QStringLiteral(QL_VERSION));
    QIcon icon;  // the same icon the package installs in the desktop's icon theme (packaging/icons)
    for (int size : {16, 32, 48, 64, 128, 256})
        icon.addFile(QStringLiteral(":/icons/quantlens-%1.png").arg(size), QSize(size, size));
    QApplication::setWindowIcon(icon);

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Put ONNX models on TensorRT in INT8"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("model"), QStringLiteral("ONNX model to open"));
    QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                  QStringLiteral("Save a PNG of the window once the model is shown, then quit."),
                                  QStringLiteral("file"));
    parser.addOption(screenshot);
    QCommandLineOption firstPaint(QStringLiteral("first-paint"),
                                  QStringLiteral("Print the time from launch to the first painted graph, then quit."));
    parser.addOption(firstPaint);
    QCommandLineOption theme(QStringLiteral("theme"), QStringLiteral("light or dark (default: the last one chosen)."),
                             QStringLiteral("name"));
    parser.addOption(theme);
    parser.process(app);
    const QString themeText =
        parser.isSet(theme) ? parser.value(theme) : QSettings().value("theme", "light").toString();
    const auto chosenTheme = ql::ui::parseTheme(themeText);
    if (!chosenTheme) {
        QTextStream(stderr) << "quantlens: --theme " << themeText << ": expected light or dark" << Qt::endl;
        return 2;
    }
    ql::ui::applyTheme(*chosenTheme);

    ql::ui::MainWindow window;
    window.show();
    QString model = parser.positionalArguments().value(0);
    // No argument: the last file worked on, or on the first run the bundled sample, so a new user sees a real
    // graph with real numbers.
    if (model.isEmpty()) {
        const QString last = window.project()->recentFiles().value(0);
        model = !last.isEmpty() && QFileInfo::exists(last) ? last : bundledSampleModel();
    }
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
    if (parser.isSet(firstPaint)) reportFirstPaint(window);
    if (!model.isEmpty()) window.openModel(model);
    return app.exec();
}
