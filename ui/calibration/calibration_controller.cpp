#include "ui/calibration/calibration_controller.h"

#include <QAction>
#include <QFileInfo>
#include <QMessageBox>
#include <QMimeData>
#include <QUrl>

#include "ui/calibration/calibration_dialog.h"
#include "ui/calibration/calibration_runner.h"
#include "ui/calibration/calibration_status_widget.h"
#include "ui/calibration/data_settings.h"
#include "ui/dialog_folder.h"
#include "ui/message_box.h"
#include "ui/model_document.h"
#include "ui/plural.h"

namespace ql::ui {

QString dataPathFromMime(const QMimeData* mime) {
    if (!mime || !mime->hasUrls()) return {};
    for (const QUrl& url : mime->urls()) {
        const QString path = url.toLocalFile();
        if (path.isEmpty()) continue;
        const QFileInfo info(path);
        const QString suffix = info.suffix().toLower();
        if (info.isDir() || suffix == QStringLiteral("npy") || suffix == QStringLiteral("npz")) return path;
    }
    return {};
}

CalibrationController::CalibrationController(ModelDocument* document, QWidget* window)
    : QObject(window),
      mDocument(document),
      mWindow(window),
      mRunner(new CalibrationRunner(document, this)),
      mStatus(new CalibrationStatusWidget(mRunner, window)) {
    mCalibrateAction = new QAction(tr("&Calibrate..."), this);
    mCalibrateAction->setShortcut(Qt::CTRL | Qt::SHIFT | Qt::Key_K);
    mCalibrateAction->setToolTip(tr("Calibrate the INT8 ranges on your data and measure the error (Ctrl+Shift+K)"));
    connect(mCalibrateAction, &QAction::triggered, this, [this] { openDialog(); });
    mMeasureAction = new QAction(tr("&Measure Again"), this);
    mMeasureAction->setShortcut(Qt::CTRL | Qt::Key_M);
    mMeasureAction->setToolTip(
        tr("Measure the error of the current plan with the current calibration, on the last calibration's data "
           "(Ctrl+M)"));
    connect(mMeasureAction, &QAction::triggered, this, &CalibrationController::measureAgain);
    for (auto signal : {&ModelDocument::planChanged, &ModelDocument::analysisChanged})
        connect(mDocument, signal, this, &CalibrationController::updateActions);

    connect(mDocument, &ModelDocument::modelReplaced, this, &CalibrationController::updateActions);
    // Results for another model would be dropped anyway: stop at once.
    connect(mDocument, &ModelDocument::modelAboutToBeReplaced, mRunner, &CalibrationRunner::cancel);
    connect(mRunner, &CalibrationRunner::started, this, &CalibrationController::updateActions);
    connect(mRunner, &CalibrationRunner::finished, this, [this] {
        updateActions();
        const auto calibration = mDocument->calibration();
        emit statusMessage(tr("Calibrated on %1")
                               .arg(counted(calibration ? static_cast<qint64>(calibration->samples) : 0, tr("1 sample"),
                                            tr("%1 samples"))));
    });
    connect(mRunner, &CalibrationRunner::cancelled, this, [this] {
        updateActions();
        emit statusMessage(tr("Calibration cancelled; the previous results stay."));
    });
    connect(mRunner, &CalibrationRunner::failed, this, &CalibrationController::showFailure);
    updateActions();
}

CalibrationController::~CalibrationController() = default;

QWidget* CalibrationController::statusWidget() const {
    return mStatus;
}

CalibrationDialog* CalibrationController::dialog() const {
    return mDialog;
}

bool CalibrationController::openDialog(const QString& dataPath) {
    if (!mDocument->model() || mRunner->isRunning()) {
        emit statusMessage(mRunner->isRunning() ? tr("A calibration is running.")
                                                : tr("Open a model first, then drop or choose its calibration data."));
        return false;
    }
    if (mDialog) mDialog->close();
    mDialog = new CalibrationDialog(mDocument->model()->graph(), mWindow);
    mDialog->setAttribute(Qt::WA_DeleteOnClose);
    mDialog->setDialogFolder(dialogFolder(mDocument));
    mDialog->applySettings(dataSettingsOf(*mDocument));
    if (!dataPath.isEmpty()) mDialog->setDataPath(dataPath);
    connect(mDialog, &QDialog::accepted, this, [this, dialog = mDialog] {
        keepDataSettings(*mDocument, dialog->settings());
        if (!mRunner->start(dialog->request())) emit statusMessage(tr("The calibration could not start."));
    });
    mDialog->open();
    return true;
}

bool CalibrationController::measureAgain() {
    const nlohmann::json settings = dataSettingsOf(*mDocument);
    if (!mDocument->model() || !mDocument->calibration() || mRunner->isRunning() || !hasDataPaths(settings)) {
        emit statusMessage(mRunner->isRunning() ? tr("A calibration is running.")
                                                : tr("Calibrate first: Measure Again reuses the calibration's data."));
        return false;
    }
    // The dialog turns settings into a request; it is never shown.
    CalibrationDialog dialog(mDocument->model()->graph(), mWindow);
    dialog.applySettings(settings);
    CalibrationRequest request = dialog.request();
    request.analyze = true;
    request.calibration = mDocument->calibration();
    if (!mRunner->start(request)) {
        emit statusMessage(tr("The measurement could not start."));
        return false;
    }
    return true;
}

void CalibrationController::updateActions() {
    const bool idle = mDocument->model() && !mRunner->isRunning();
    mCalibrateAction->setEnabled(idle);
    const bool current = mDocument->analysis(AnalysisMode::Accumulated) && !mDocument->isAnalysisStale();
    mMeasureAction->setEnabled(idle && mDocument->calibration() && !current);
}

void CalibrationController::showFailure(const QString& message) {
    updateActions();
    emit statusMessage(tr("Calibration failed: %1").arg(message));
    // Not blocking: the window (and any test driving it) keeps running.
    showMessage(mWindow, QMessageBox::Warning, tr("Calibration failed"), message);
}

}  // namespace ql::ui
