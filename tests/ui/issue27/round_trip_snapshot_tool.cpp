// The issue 27 walk as PNGs (for looking, not a test): the sample calibrated, tuned to output-sqnr>=40 in the Tune
// dialog, the tuned plan applied, exported for TensorRT 10 (strongly typed) as File > Export does, and the exported
// file opened in the window.
//   QT_QPA_PLATFORM=offscreen ql_round_trip_snapshot OUTDIR
// writes OUTDIR/round-trip-before-export.png and OUTDIR/round-trip-reopened.png, and prints each compute node's
// precision before the export and after reopening ("same" or "DIFFERS"), so a look and a diff agree.
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QSignalSpy>
#include <QtTest>
#include <cstdio>
#include <map>

#include "core/model/fp16_form.h"
#include "tests/ui/calibration/calibration_test_support.h"
#include "ui/calibration/calibration_controller.h"
#include "ui/calibration/calibration_runner.h"
#include "ui/export_job.h"
#include "ui/main_window.h"
#include "ui/model_document.h"
#include "ui/project_controller.h"
#include "ui/theme.h"
#include "ui/tuning/tune_controller.h"
#include "ui/tuning/tune_dialog.h"
#include "ui/tuning/tune_runner.h"
#include "ui/tuning/tune_settings_widget.h"

namespace {

int fail(const char* what) {
    std::fprintf(stderr, "ql_round_trip_snapshot: %s\n", what);
    return 1;
}

bool open(ql::ui::MainWindow& window, const QString& path) {
    QSignalSpy opened(&window, &ql::ui::MainWindow::modelOpened);
    window.openModel(path);
    return QTest::qWaitFor([&] { return !opened.isEmpty(); }, 30000);
}

std::map<std::string, ql::Precision> precisions(const ql::ui::ModelDocument& document) {
    std::map<std::string, ql::Precision> byName;
    const ql::Graph& graph = document.model()->graph();
    for (const ql::Node& node : graph.nodes())
        if (ql::hasPrecisionChoice(graph, node)) byName[node.name] = document.plan().effective(node.id);
    return byName;
}

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    const QStringList args = QApplication::arguments();
    if (args.size() < 2) {
        std::fprintf(stderr, "usage: ql_round_trip_snapshot OUTDIR\n");
        return 2;
    }
    const QDir out(args[1]);
    ql::ui::applyTheme(ql::ui::Theme::Light);
    ql::ui::MainWindow window;
    window.resize(1600, 1000);
    window.show();
    if (!open(window, ql::test::sampleModelPath())) return fail("the sample did not open");
    auto* runner = window.findChild<ql::ui::CalibrationController*>()->runner();
    QSignalSpy calibrated(runner, &ql::ui::CalibrationRunner::finished);
    runner->start(ql::test::sampleRequest(true, 256));
    if (!QTest::qWaitFor([&] { return !calibrated.isEmpty(); }, 120000)) return fail("the calibration did not end");

    auto* controller = window.findChild<ql::ui::TuneController*>();
    if (!controller->openDialog()) return fail("the Tune dialog did not open");
    ql::ui::TuneDialog* dialog = controller->dialog();
    dialog->settings()->setTarget(ql::TuneTarget::Kind::OutputSqnr, 40.0);
    dialog->settings()->setDataPath(QString::fromStdString(ql::test::sampleDataPath("digits_test.npy")));
    dialog->settings()->setLabelsPath(QString::fromStdString(ql::test::sampleDataPath("digits_test_labels.npy")));
    QSignalSpy finished(dialog->runner(), &ql::ui::TuneRunner::finished);
    if (!dialog->startTuning()) {
        std::fprintf(stderr, "%s\n", qPrintable(dialog->errorText()));
        return 1;
    }
    if (!QTest::qWaitFor([&] { return !finished.isEmpty(); }, 300000)) return fail("the tune did not end");
    dialog->applyResult();
    dialog->close();

    // Export for 10 (strongly typed) and 11 from the tuned document, then open each export as a user would.
    ql::ui::ModelDocument* document = window.document();
    const ql::TrtTarget targets[] = {{ql::TrtVersion::Trt10, ql::TrtTyping::Strong},
                                     {ql::TrtVersion::Trt11, ql::TrtTyping::Strong}};
    std::map<std::string, ql::Precision> before;
    QStringList exported;
    for (const ql::TrtTarget& target : targets) {
        document->setTrtTarget(target);
        if (target.version == ql::TrtVersion::Trt10) {
            window.findChild<QDockWidget*>(QStringLiteral("PrecisionDock"))->raise();
            QTest::qWait(500);
            if (!ql::test::saveSnapshot(&window, out, "round-trip-before-export.png")) return fail("no screenshot");
            before = precisions(*document);
        } else if (precisions(*document) != before) {
            return fail("the plan reads differently for 11 than for 10");
        }
        exported.append(QDir::temp().filePath(QStringLiteral("round_trip_digits_%1.qdq.onnx")
                                                  .arg(QString::fromStdString(trtVersionName(target.version)))));
        const QString summary = ql::ui::runExport({.model = document->sharedModel(),
                                                   .plan = document->plan(),
                                                   .calibration = document->calibration(),
                                                   .target = target,
                                                   .modelPath = exported.last()});
        std::printf("%s\n", qPrintable(summary));
        if (summary.startsWith(QStringLiteral("error"))) return fail("the export failed");
    }
    // Opening another file asks about the unsaved tuned plan: the exports are what counts here.
    window.project()->setUnsavedPrompt([] { return ql::ui::ProjectController::UnsavedChoice::Discard; });
    int differing = 0;
    for (const QString& file : exported) {
        if (!open(window, file)) return fail("an export did not open");
        if (file == exported.first()) {
            window.findChild<QDockWidget*>(QStringLiteral("PrecisionDock"))->raise();
            QTest::qWait(500);
            if (!ql::test::saveSnapshot(&window, out, "round-trip-reopened.png")) return fail("no screenshot");
        }
        std::printf("%s\n", qPrintable(file));
        for (const auto& [name, precision] : precisions(*window.document())) {
            const auto was = before.find(name);
            if (was == before.end()) continue;
            const bool same = was->second == precision;
            differing += same ? 0 : 1;
            std::printf("  %-28s %s -> %s %s\n", name.c_str(), ql::precisionName(was->second),
                        ql::precisionName(precision), same ? "same" : "DIFFERS");
        }
    }
    return differing == 0 ? 0 : fail("a node's precision differs between the window and the reopened export");
}
