// The calibration dialog and its place in the window: paths are checked before a run starts (the message
// names the file), the request carries the chosen settings, the last settings come back, dropping a data
// file on the window opens the dialog with it filled in, and a run from the window fills the plots.
#include <QDir>
#include <QDockWidget>
#include <QMimeData>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QUrl>
#include <QtTest>

#include "tests/support/model_builder.h"
#include "tests/ui/calibration/calibration_test_support.h"
#include "tests/ui/window_test_util.h"
#include "ui/calibration/calibration_controller.h"
#include "ui/calibration/calibration_dialog.h"
#include "ui/calibration/calibration_runner.h"
#include "ui/calibration/calibration_status_widget.h"
#include "ui/main_window.h"
#include "ui/model_document.h"
#include "ui/plots/histogram_plot.h"
#include "ui/plots/layer_error_plot.h"

using namespace ql;

class CalibrationDialogTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void missingPathIsReportedNamingTheFile();
    void requestCarriesTheSettings();
    void lastSettingsAreRemembered();
    void dataPathFromMimeTakesArraysAndFolders();
    void droppedDataFileOpensTheDialogFilledIn();
    void runFromTheWindowFillsThePlots();
    void etaIsReadable();
};

namespace {

using test::openAndWait;

std::unique_ptr<Model> sampleModel() {
    auto model = Model::load(test::sampleModelPath().toStdString());
    return model ? std::move(model).value() : nullptr;
}

}  // namespace

void CalibrationDialogTest::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();
}

void CalibrationDialogTest::missingPathIsReportedNamingTheFile() {
    const auto model = sampleModel();
    QVERIFY(model);
    ui::CalibrationDialog dialog(model->graph());
    dialog.setDataPath(QString());
    QVERIFY(dialog.validate().contains(QStringLiteral("choose a file or folder")));
    dialog.setDataPath(QStringLiteral("/nonexistent/where/calib_images"));
    dialog.show();
    dialog.accept();
    QVERIFY(dialog.isVisible());  // stays open
    QVERIFY2(dialog.errorText().contains(QStringLiteral("/nonexistent/where/calib_images")),
             qPrintable(dialog.errorText()));

    dialog.setDataPath(QString::fromStdString(test::sampleDataPath("digits_calib.npy")));
    dialog.setAnalyze(true);
    dialog.setLabelsPath(QStringLiteral("/nonexistent/labels.npy"));
    QVERIFY(dialog.validate().contains(QStringLiteral("labels.npy")));
    dialog.setAnalyze(false);  // the labels are not used then
    QVERIFY(dialog.validate().isEmpty());
}

void CalibrationDialogTest::requestCarriesTheSettings() {
    const auto model = sampleModel();
    ui::CalibrationDialog dialog(model->graph());
    const QString data = QString::fromStdString(test::sampleDataPath("digits_calib.npy"));
    dialog.setDataPath(data);
    dialog.setMethod(CalibrationMethod::Percentile, 99.9);
    dialog.setSampleCount(100);
    dialog.setAnalyze(true);
    dialog.setEvaluationPath(QString::fromStdString(test::sampleDataPath("digits_test.npy")));
    const ui::CalibrationRequest r = dialog.request();
    QCOMPARE(r.data.size(), size_t{1});
    QCOMPARE(QString::fromStdString(r.data[0].path), data);
    QVERIFY(r.data[0].input.empty());  // the only input
    QCOMPARE(r.config.method, CalibrationMethod::Percentile);
    QCOMPARE(r.config.percentile, 99.9);
    QCOMPARE(r.samples, 100);
    QVERIFY(r.analyze);
    QCOMPARE(r.evaluationData.size(), size_t{1});
    QVERIFY(r.threads >= 1);
}

void CalibrationDialogTest::lastSettingsAreRemembered() {
    const auto model = sampleModel();
    const QString data = QString::fromStdString(test::sampleDataPath("digits_calib.npy"));
    {
        ui::CalibrationDialog dialog(model->graph());
        dialog.setDataPath(data);
        dialog.setMethod(CalibrationMethod::Mse);
        dialog.setSampleCount(77);
        dialog.show();
        dialog.accept();
        QVERIFY(!dialog.isVisible());
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
    }
    ui::CalibrationDialog again(model->graph());
    QCOMPARE(again.dataPath(), QString());  // paths belong to one model: the controller keeps them (data_settings.h)
    QCOMPARE(again.request().config.method, CalibrationMethod::Mse);
    QCOMPARE(again.request().samples, 77);
}

void CalibrationDialogTest::dataPathFromMimeTakesArraysAndFolders() {
    test::TempDir dir;
    QMimeData mime;
    mime.setUrls(
        {QUrl::fromLocalFile(QStringLiteral("/tmp/picture.png")), QUrl::fromLocalFile(QStringLiteral("/x/calib.NPZ"))});
    QCOMPARE(ui::dataPathFromMime(&mime), QStringLiteral("/x/calib.NPZ"));
    mime.setUrls({QUrl::fromLocalFile(QString::fromStdString(dir.path()))});
    QCOMPARE(ui::dataPathFromMime(&mime), QString::fromStdString(dir.path()));
    mime.setUrls({QUrl::fromLocalFile(QStringLiteral("/tmp/model.onnx"))});
    QVERIFY(ui::dataPathFromMime(&mime).isEmpty());
}

void CalibrationDialogTest::droppedDataFileOpensTheDialogFilledIn() {
    ui::MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, test::sampleModelPath()));
    const QString data = QString::fromStdString(test::sampleDataPath("digits_test.npy"));
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(data)});
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    static_cast<QObject*>(&window)->event(&drop);
    auto* controller = window.findChild<ui::CalibrationController*>();
    QVERIFY(controller && controller->dialog());
    QVERIFY(controller->dialog()->isVisible());
    QCOMPARE(controller->dialog()->dataPath(), data);
    QCOMPARE(window.document()->fileName(), QStringLiteral("digits_cnn.onnx"));  // the model stays
}

void CalibrationDialogTest::runFromTheWindowFillsThePlots() {
    ui::MainWindow window;
    window.resize(1400, 900);
    window.show();
    QVERIFY(openAndWait(window, test::sampleModelPath()));
    auto* controller = window.findChild<ui::CalibrationController*>();
    QVERIFY(controller->calibrateAction()->isEnabled());
    QVERIFY(controller->openDialog(QString::fromStdString(test::sampleDataPath("digits_calib.npy"))));
    ui::CalibrationDialog* dialog = controller->dialog();
    dialog->setAnalyze(true);
    dialog->setEvaluationPath(QString::fromStdString(test::sampleDataPath("digits_test.npy")));
    dialog->setLabelsPath(QString::fromStdString(test::sampleDataPath("digits_test_labels.npy")));
    QSignalSpy finished(controller->runner(), &ui::CalibrationRunner::finished);
    dialog->accept();
    QVERIFY(controller->runner()->isRunning());
    QVERIFY(controller->statusWidget()->isVisible());
    QVERIFY(!controller->calibrateAction()->isEnabled());
    QVERIFY(finished.wait(120000));
    QVERIFY(!controller->statusWidget()->isVisible());
    QVERIFY(controller->calibrateAction()->isEnabled());

    auto* histogram = window.findChild<ui::HistogramPlot*>();
    auto* layers = window.findChild<ui::LayerErrorPlot*>();
    QVERIFY(histogram && layers);
    QVERIFY(histogram->placeholderText().isEmpty());
    QVERIFY(layers->barCount(AnalysisMode::Accumulated) > 0);
    QVERIFY(layers->barCount(AnalysisMode::Isolated) > 0);
    QVERIFY(window.findChild<QDockWidget*>(QStringLiteral("HistogramDock"))->isVisible());
    QVERIFY(window.findChild<QDockWidget*>(QStringLiteral("LayerErrorDock"))->isVisible());
    const QString out = qEnvironmentVariable("QL_CALIBRATION_SCREENSHOT");
    if (!out.isEmpty()) window.grab().save(out);
}

void CalibrationDialogTest::etaIsReadable() {
    QCOMPARE(ui::formatEta(-1.0), QString());
    QCOMPARE(ui::formatEta(12.4), QStringLiteral("12 s left"));
    QCOMPARE(ui::formatEta(65.0), QStringLiteral("1 min 05 s left"));
    QCOMPARE(ui::formatEta(3725.0), QStringLiteral("1 h 02 min left"));
}

QTEST_MAIN(CalibrationDialogTest)
#include "calibration_dialog_test.moc"
