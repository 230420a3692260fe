#include "ui/tuning/tune_controller.h"

#include <QAction>

#include "ui/model_document.h"
#include "ui/tuning/tune_dialog.h"

namespace ql::ui {

TuneController::TuneController(ModelDocument* document, QWidget* window)
    : QObject(window), mDocument(document), mWindow(window), mTuneAction(new QAction(tr("&Tune..."), this)) {
    mTuneAction->setShortcut(Qt::CTRL | Qt::SHIFT | Qt::Key_T);
    mTuneAction->setToolTip(
        tr("Find the plan closest to all-INT8 whose outputs meet an accuracy target (needs a calibration)"));
    connect(mTuneAction, &QAction::triggered, this, &TuneController::openDialog);
    connect(mDocument, &ModelDocument::modelReplaced, this, &TuneController::updateAction);
    connect(mDocument, &ModelDocument::calibrationChanged, this, &TuneController::updateAction);
    updateAction();
}

TuneDialog* TuneController::dialog() const {
    return mDialog;
}

bool TuneController::openDialog() {
    if (!mDocument->model() || !mDocument->calibration()) {
        emit statusMessage(
            tr("Calibrate first (Quantize > Calibrate...): tuning chooses among the calibrated ranges."));
        return false;
    }
    if (mDialog) mDialog->close();
    mDialog = new TuneDialog(mDocument, mWindow);
    mDialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(mDialog, &TuneDialog::statusMessage, this, &TuneController::statusMessage);
    mDialog->open();
    return true;
}

void TuneController::updateAction() {
    mTuneAction->setEnabled(mDocument->model() && mDocument->calibration());
}

}  // namespace ql::ui
