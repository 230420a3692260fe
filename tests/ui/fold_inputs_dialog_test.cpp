// File > Fix Inputs and Fold...: enabled for a model whose If an input decides (Silero VAD's form), the dialog
// proposes a file beside the model, a bad value stays in the dialog with the reason, and the folded model opens with
// the branch's layers in the main graph.
#include <QAction>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QtTest>

#include "tests/support/control_flow_model.h"
#include "tests/support/model_builder.h"
#include "tests/ui/window_test_util.h"
#include "ui/fold_inputs_dialog.h"
#include "ui/main_window.h"
#include "ui/model_document.h"

using namespace ql;

class FoldInputsDialogTest : public QObject {
    Q_OBJECT
private slots:
    void foldsTheRateSwitchAndOpensTheResult();
    void disabledWhenNoInputDecidesAnIf();
};

namespace {

QString writeRateSwitch(const test::TempDir& dir) {
    const std::string path = dir.file("vad.onnx");
    test::saveRateSwitchModel(path);
    return QString::fromStdString(path);
}

}  // namespace

void FoldInputsDialogTest::foldsTheRateSwitchAndOpensTheResult() {
    test::TempDir dir;
    ui::MainWindow window;
    window.show();
    QVERIFY(test::openAndWait(window, writeRateSwitch(dir)));
    auto* fold = window.findChild<ui::FoldInputsController*>();
    QVERIFY(fold);
    QVERIFY(fold->action()->isEnabled());
    fold->action()->trigger();
    ui::FoldInputsDialog* dialog = fold->dialog();
    QVERIFY(dialog);
    QVERIFY(dialog->valueField(QStringLiteral("sr")));
    QVERIFY(!dialog->valueField(QStringLiteral("x")));  // x decides nothing

    // A value that is not a number: the reason, and the dialog stays.
    dialog->valueField(QStringLiteral("sr"))->setText(QStringLiteral("fast"));
    dialog->accept();
    QTRY_VERIFY(dialog->errorText().contains(QStringLiteral("not a number")));
    QVERIFY(dialog->isVisible());

    dialog->valueField(QStringLiteral("sr"))->setText(QStringLiteral("16000"));
    const QString expected = QString::fromStdString(dir.file("vad.sr16000.onnx"));
    QCOMPARE(dialog->outputField()->text(), expected);
    QSignalSpy opened(&window, &ui::MainWindow::modelOpened);
    dialog->accept();
    // While it writes, the fields are not edited: what opens is the file written, whatever was typed meanwhile.
    QVERIFY(!dialog->outputField()->isEnabled() && !dialog->valueField(QStringLiteral("sr"))->isEnabled());
    dialog->outputField()->setText(QString::fromStdString(dir.file("elsewhere.onnx")));
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 10000);
    QCOMPARE(opened.at(0).at(0).toString(), expected);
    QVERIFY(QFileInfo::exists(expected));
    const Graph& graph = window.document()->model()->graph();
    bool hasIf = false, hasAdd = false;
    for (const Node& node : graph.nodes()) {
        hasIf = hasIf || node.opType == "If";
        hasAdd = hasAdd || node.opType == "Add";
    }
    QVERIFY(!hasIf);
    QVERIFY(hasAdd);  // the then branch's layer, now in the main graph (and in the precision table)
    QVERIFY(!fold->action()->isEnabled());  // nothing left to fold
}

void FoldInputsDialogTest::disabledWhenNoInputDecidesAnIf() {
    test::TempDir dir;
    ui::MainWindow window;
    QVERIFY(test::openAndWait(window, test::writeTinyModel(dir)));
    auto* fold = window.findChild<ui::FoldInputsController*>();
    QVERIFY(fold);
    QVERIFY(!fold->action()->isEnabled());
}

QTEST_MAIN(FoldInputsDialogTest)
#include "fold_inputs_dialog_test.moc"
