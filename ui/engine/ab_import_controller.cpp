#include "ui/engine/ab_import_controller.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QtConcurrent>
#include <utility>

#include "ui/engine/gpu_fit_controller.h"
#include "ui/model_document.h"

namespace ql::ui {

namespace {

QString verdicts(const AbImport& imported) {
    QString text = QString::fromStdString(abOutcomesText(imported.outcomes));
    if (imported.outcomes.empty()) text = QObject::tr("No A/B pair with both of its builds' reports.\n");
    for (const std::string& model : imported.notRun)
        text += QObject::tr("Left out, no reports beside it (its script did not run?): %1\n")
                    .arg(QFileInfo(QString::fromStdString(model)).fileName());
    return text;
}

}  // namespace

AbImportController::AbImportController(ModelDocument* document, QWidget* window)
    : QObject(window), mDocument(document), mWindow(window) {
    mAction = new QAction(tr("A/B Builds Folder..."), this);
    mAction->setToolTip(
        tr("The folder Quantize > A/B scripts wrote, after its scripts ran on your GPU: fits the GPU profile "
           "to every build and says which A/B predictions were wrong"));
    connect(mAction, &QAction::triggered, this, &AbImportController::chooseFolder);
    connect(&mWatcher, &QFutureWatcher<Result<AbImport>>::finished, this, &AbImportController::finished);
}

AbImportController::~AbImportController() {
    mWatcher.waitForFinished();
}

void AbImportController::chooseFolder() {
    const QString folder = QFileDialog::getExistingDirectory(mWindow, tr("A/B Builds Folder"));
    if (folder.isEmpty()) return;
    if (importFolder(folder)) mQuiet = false;  // chosen by hand: the outcome comes in a dialog too
}

bool AbImportController::importFolder(const QString& folder) {
    if (mWatcher.isRunning()) return false;
    const auto current = mDocument->gpuProfile();  // refined when it is of the folder's GPU
    mWatcher.setFuture(QtConcurrent::run(
        [path = folder.toStdString(), current]() -> Result<AbImport> { return importAbFolder(path, current.get()); }));
    mAction->setEnabled(false);
    emit message(tr("Importing the A/B builds of %1...").arg(QDir::toNativeSeparators(folder)));
    return true;
}

void AbImportController::finished() {
    const Result<AbImport> outcome = mWatcher.result();
    mAction->setEnabled(true);
    const bool quiet = std::exchange(mQuiet, true);
    if (!outcome) {
        mLastReport = QString::fromStdString(outcome.status().message());
        emit message(tr("A/B builds not imported: %1").arg(mLastReport));
        if (!quiet) QMessageBox::warning(mWindow, tr("A/B Builds"), mLastReport);
        emit imported(false);
        return;
    }
    const QString summary = fittedProfileText(outcome->fitted);
    const QString said = verdicts(*outcome);
    mLastReport = summary + QLatin1Char('\n') + said;
    mDocument->setGpuProfile(std::make_shared<GpuProfile>(outcome->fitted));
    emit message(summary);
    for (const QString& line : said.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) emit message(line);
    if (!quiet) QMessageBox::information(mWindow, tr("A/B Builds"), mLastReport);
    emit imported(true);
}

}  // namespace ql::ui
