// Issue 18, item 9 (file dialogs): they start in the open project's or model's folder, never the process's: Open,
// the plot's Export..., the calibration and tune dialogs' data and labels pickers, and the engine report import.
#include <QApplication>
#include <QDir>
#include <QFileDialog>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTimer>
#include <QToolButton>
#include <QtTest>
#include <functional>

#include "tests/ui/calibration/calibration_test_support.h"
#include "tests/ui/window_test_util.h"
#include "ui/calibration/calibration_controller.h"
#include "ui/calibration/calibration_dialog.h"
#include "ui/dialog_folder.h"
#include "ui/engine/engine_controller.h"
#include "ui/main_window.h"
#include "ui/model_document.h"
#include "ui/plots/layer_error_plot.h"
#include "ui/tuning/tune_dialog.h"
#include "ui/tuning/tune_settings_widget.h"

using namespace ql;

namespace {

using test::openAndWait;

const QString kSamples = QStringLiteral(QL_SOURCE_DIR "/resources/samples");

// The folder the file dialog that `open` shows starts in; the dialog is cancelled at once. Empty when none showed.
QString startFolderOf(const std::function<void()>& open) {
    QString folder;
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, [&folder] {
        for (QWidget* widget : QApplication::topLevelWidgets()) {
            auto* dialog = qobject_cast<QFileDialog*>(widget);
            if (!dialog || !dialog->isVisible()) continue;
            folder = dialog->directory().absolutePath();
            dialog->reject();
        }
    });
    poll.start(20);
    open();
    QTest::qWait(50);  // a dialog that never opened leaves `folder` empty
    return folder;
}

// The start folder of every File... and Folder... button under `widget`, "button text: folder" each.
QStringList pickerFolders(QWidget* widget) {
    QStringList folders;
    for (QToolButton* button : widget->findChildren<QToolButton*>()) {
        if (!button->text().endsWith(QStringLiteral("...")) || !button->isEnabled()) continue;
        folders.append(button->text() + QStringLiteral(": ") + startFolderOf([button] { button->click(); }));
    }
    return folders;
}

}  // namespace

class DialogFolderTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("QuantLensTest"));
        QCoreApplication::setApplicationName(QStringLiteral("dialog_folder_test"));
    }

    void dialogsStartInTheModelsFolder() {
        ui::ModelDocument document;
        QVERIFY(ui::dialogFolder(&document) != QDir::currentPath());
        test::loadSample(document);
        QCOMPARE(ui::dialogFolder(&document), kSamples);
        document.setProjectPath(QStringLiteral("/tmp/somewhere/work.qlproj"));
        QCOMPARE(ui::dialogFolder(&document), QStringLiteral("/tmp/somewhere"));
    }

    // The plot's context menu Export... offered the process's folder.
    void plotExportStartsInTheModelsFolder() {
        ui::ModelDocument document;
        test::loadSample(document);
        ui::LayerErrorPlot plot;
        plot.setDocument(&document);
        QCOMPARE(startFolderOf([&plot] { plot.exportWithDialog(); }), kSamples);
    }

    // Quantize > Tune...: the evaluation data's File... and Folder... and the labels' File....
    void tuneDialogPickersStartInTheModelsFolder() {
        ui::ModelDocument document;
        test::loadSample(document);
        ui::TuneDialog dialog(&document);
        const QStringList folders = pickerFolders(dialog.settings());
        QCOMPARE(folders.size(), 3);
        for (const QString& folder : folders)
            QVERIFY2(folder.endsWith(QStringLiteral(": ") + kSamples), qPrintable(folder));
    }

    // Quantize > Calibrate...: calibration data, evaluation data and labels.
    void calibrationDialogPickersStartInTheModelsFolder() {
        ui::MainWindow window;
        QVERIFY(openAndWait(window, test::sampleModelPath()));
        auto* calibration = window.findChild<ui::CalibrationController*>();
        QVERIFY(calibration && calibration->openDialog());
        calibration->dialog()->setAnalyze(true);  // its evaluation data and labels too
        const QStringList folders = pickerFolders(calibration->dialog());
        QCOMPARE(folders.size(), 5);
        for (const QString& folder : folders)
            QVERIFY2(folder.endsWith(QStringLiteral(": ") + kSamples), qPrintable(folder));
        calibration->dialog()->reject();
    }

    void engineReportImportStartsInTheModelsFolder() {
        ui::MainWindow window;
        QVERIFY(openAndWait(window, test::sampleModelPath()));
        QCOMPARE(startFolderOf([&window] { window.engine()->importAction()->trigger(); }), kSamples);
    }
};

QTEST_MAIN(DialogFolderTest)
#include "dialog_folder_test.moc"
