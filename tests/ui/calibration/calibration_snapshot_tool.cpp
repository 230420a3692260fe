// Renders the main window after a calibration of the bundled sample (graph, histogram of a Conv output with
// the method lines, per-layer error) to a PNG, for looking at it (not a test). --model/--data calibrate another
// model on its data instead (no error analysis), and --select shows the output of the node of that name.
// --dialog --images shows the dialog on a folder of images made of the sample's first digits (each 16x16 digit
// on a 24x16 black canvas, so letterbox pads it), letterboxed, with its preview (docs/preprocess-preview.png).
//   QT_QPA_PLATFORM=offscreen ql_calibration_snapshot OUT.png [--dark] [--scatter | --dialog [--images]] [--fp32]
//       [--model M.onnx --data D.npy] [--select NODE]
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QImage>
#include <QSignalSpy>
#include <QtTest>
#include <algorithm>
#include <cstdio>

#include "core/data/npy.h"
#include "tests/support/model_builder.h"
#include "tests/ui/calibration/calibration_test_support.h"
#include "ui/calibration/calibration_controller.h"
#include "ui/calibration/calibration_dialog.h"
#include "ui/calibration/calibration_runner.h"
#include "ui/calibration/image_preprocess_editor.h"
#include "ui/calibration/preprocess_preview.h"
#include "ui/graph/graph_view.h"
#include "ui/main_window.h"
#include "ui/theme.h"

namespace {

// The sample's first `count` digits ([N,1,16,16] in [0, 1]) as 24x16 grayscale PNGs in `folder`.
bool writeDigitImages(const QString& folder, int count) {
    auto digits = ql::readNpy(ql::test::sampleDataPath("digits_calib.npy"));
    if (!digits.isOk()) return false;
    const std::vector<float> values = digits->toFloats();
    for (int n = 0; n < count; ++n) {
        QImage image(24, 16, QImage::Format_Grayscale8);
        image.fill(0);
        for (int y = 0; y < 16; ++y)
            for (int x = 0; x < 16; ++x)
                image.scanLine(y)[x + 4] =
                    static_cast<uchar>(std::clamp(values[static_cast<size_t>(n * 256 + y * 16 + x)], 0.0f, 1.0f) * 255);
        if (!image.save(QStringLiteral("%1/digit_%2.png").arg(folder).arg(n))) return false;
    }
    return true;
}

// The dialog with the digit images letterboxed, once its preview shows them.
int snapshotDialogOnImages(ql::ui::CalibrationController* controller, const QString& out) {
    ql::test::TempDir dir;
    const QString folder = QString::fromStdString(dir.file("digit_images"));
    if (!QDir().mkpath(folder) || !writeDigitImages(folder, 4) || !controller->openDialog(folder)) return 1;
    ql::ui::CalibrationDialog* dialog = controller->dialog();
    ql::ImagePreprocess letterbox = dialog->preprocessEditor()->value();
    letterbox.resize = ql::ResizeMode::Letterbox;
    letterbox.mean = {0.5f};
    letterbox.stddev = {0.5f};
    dialog->preprocessEditor()->setValue(letterbox);
    dialog->resize(1000, dialog->sizeHint().height());
    if (!QTest::qWaitFor([dialog] { return !dialog->preview()->isUpdating(); }, 10000)) return 1;
    QTest::qWait(100);
    std::printf("%s\n", qPrintable(out));
    return dialog->grab().save(out) ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    const QStringList args = QApplication::arguments();
    if (args.size() < 2) {
        std::fprintf(stderr, "usage: ql_calibration_snapshot OUT.png [--dark] [--scatter]\n");
        return 2;
    }
    ql::ui::applyTheme(args.contains(QStringLiteral("--dark")) ? ql::ui::Theme::Dark : ql::ui::Theme::Light);

    const auto option = [&](const char* name) {
        const qsizetype at = args.indexOf(QLatin1String(name));
        return at > 0 && at + 1 < args.size() ? args[at + 1] : QString();
    };
    const QString model = option("--model"), data = option("--data"), select = option("--select");

    ql::ui::MainWindow window;
    window.resize(1600, 1000);
    window.show();
    QSignalSpy opened(&window, &ql::ui::MainWindow::modelOpened);
    window.openModel(model.isEmpty() ? ql::test::sampleModelPath() : model);
    if (!QTest::qWaitFor([&] { return !opened.isEmpty(); }, 30000)) return 1;
    auto* controller = window.findChild<ql::ui::CalibrationController*>();
    if (args.contains(QStringLiteral("--dialog")) && args.contains(QStringLiteral("--images")))
        return snapshotDialogOnImages(controller, args[1]);
    if (args.contains(QStringLiteral("--dialog"))) {  // the calibration dialog with the sample's data dropped in
        controller->openDialog(QString::fromStdString(ql::test::sampleDataPath("digits_calib.npy")));
        QTest::qWait(300);
        return controller->dialog()->grab().save(args[1]) ? 0 : 1;
    }
    auto* runner = controller->runner();
    if (!ql::test::calibrateForSnapshot(runner, data, 120000)) return 1;
    ql::test::selectForSnapshot(window, select);  // the second Conv: its output histogram is the one shown
    const ql::Graph& graph = window.document()->model()->graph();
    if (args.contains(QStringLiteral("--fp32"))) {  // every layer FP32 after the analysis: the results are stale
        QList<ql::NodeId> nodes;
        for (const ql::Node& node : graph.nodes()) nodes.append(node.id);
        window.document()->setRequestedPrecision(nodes, ql::Precision::Fp32);
    }
    if (args.contains(QStringLiteral("--scatter")))
        window.findChild<QDockWidget*>(QStringLiteral("OutputScatterDock"))->raise();
    QTest::qWait(800);
    if (!window.grab().save(args[1])) return 1;
    std::printf("%s\n", qPrintable(args[1]));
    return 0;
}
