#include "ui/help/help_menu.h"

#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>

#include "ui/help/lint_rules_dialog.h"
#include "ui/message_box.h"

namespace ql::ui {

namespace {

void showDialog(QDialog* dialog) {
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
}

}  // namespace

QString aboutText() {
    return QObject::tr(
               "<h3>QuantLens %1</h3><p>Puts ONNX models on TensorRT in INT8: finds the layers that will not "
               "survive INT8 and says why, calibrates on your data, measures the error of every layer and "
               "exports a TensorRT-ready Q/DQ model. The command line (quantlens-cli) does the same in a "
               "pipeline.</p><p>Built with Qt %2, ONNX, oneDNN, Eigen, Graphviz and QCustomPlot.</p>")
        .arg(QStringLiteral(QL_VERSION), QString::fromUtf8(qVersion()));
}

QMenu* addHelpMenu(QMainWindow* window, const QList<ShortcutGroup>& viewShortcuts) {
    QMenu* help = window->menuBar()->addMenu(QObject::tr("&Help"));
    help->setObjectName(QStringLiteral("HelpMenu"));
    QAction* shortcuts = help->addAction(QObject::tr("&Keyboard Shortcuts"), window, [window, viewShortcuts] {
        showDialog(new ShortcutsDialog(windowShortcuts(window->menuBar(), viewShortcuts), window));
    });
    shortcuts->setObjectName(QStringLiteral("KeyboardShortcutsAction"));
    shortcuts->setShortcut(QKeySequence::HelpContents);
    help->addAction(QObject::tr("TensorRT &Lint Rules"), window, [window] { showDialog(new LintRulesDialog(window)); })
        ->setObjectName(QStringLiteral("LintRulesAction"));
    help->addSeparator();
    help->addAction(
            QObject::tr("&About QuantLens"), window,
            [window] { showMessage(window, QMessageBox::Information, QObject::tr("About QuantLens"), aboutText()); })
        ->setObjectName(QStringLiteral("AboutAction"));
    return help;
}

}  // namespace ql::ui
