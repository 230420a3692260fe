// File > Fix Inputs and Fold... on a model, to PNGs for looking at (not a test): DIALOG.png with VALUE typed for the
// first input that decides an If, then WINDOW.png with the folded model open.
//   QT_QPA_PLATFORM=offscreen ql_fold_inputs_snapshot MODEL.onnx VALUE DIALOG.png WINDOW.png
#include <QApplication>
#include <QLineEdit>
#include <QSignalSpy>
#include <QtTest>
#include <cstdio>

#include "core/export/input_folding.h"
#include "ui/fold_inputs_dialog.h"
#include "ui/main_window.h"
#include "ui/model_document.h"

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() < 5) {
        std::fprintf(stderr, "usage: ql_fold_inputs_snapshot MODEL.onnx VALUE DIALOG.png WINDOW.png\n");
        return 2;
    }
    ql::ui::MainWindow window;
    window.resize(1600, 1000);
    window.show();
    QSignalSpy opened(&window, &ql::ui::MainWindow::modelOpened);
    window.openModel(args[1]);
    if (!QTest::qWaitFor([&] { return !opened.isEmpty(); }, 60000)) return 1;
    auto* fold = window.findChild<ql::ui::FoldInputsController*>();
    if (!fold || !fold->action()->isEnabled()) {
        std::fprintf(stderr, "no input decides an If of this model\n");
        return 1;
    }
    fold->action()->trigger();
    ql::ui::FoldInputsDialog* dialog = fold->dialog();
    const std::vector<std::string> inputs = ql::inputsDecidingIfs(*window.document()->model());
    dialog->valueField(QString::fromStdString(inputs.front()))->setText(args[2]);
    QTest::qWait(200);
    if (!dialog->grab().save(args[3])) return 1;
    dialog->accept();
    if (!QTest::qWaitFor([&] { return opened.size() == 2; }, 60000)) return 1;
    QTest::qWait(500);
    return window.grab().save(args[4]) ? 0 : 1;
}
