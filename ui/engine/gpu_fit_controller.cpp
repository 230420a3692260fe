#include "ui/engine/gpu_fit_controller.h"

#include <QAction>
#include <QFileInfo>
#include <QInputDialog>
#include <QMessageBox>
#include <QtConcurrent>

#include "core/engine/gpu_profile_fit.h"
#include "core/engine/gpu_specs.h"
#include "ui/engine/engine_run.h"
#include "ui/model_document.h"

namespace ql::ui {

QString fittedProfileText(const GpuProfile& profile) {
    const FitQuality& q = *profile.fit;
    const QString reports =
        q.reports.size() > 1 ? QObject::tr(" of %1 engine reports").arg(q.reports.size()) : QString();
    return QObject::tr(
               "%1 profile fitted to %2 layer times%3: per-layer median error %4%, rank correlation %5, total %6%; "
               "later predictions use it, and the project keeps it")
        .arg(QString::fromStdString(profile.gpu.name))
        .arg(q.layers)
        .arg(reports)
        .arg(qRound(q.medianLayerError * 100))
        .arg(q.spearman, 0, 'f', 2)
        .arg(qRound(q.totalError * 100));
}

GpuFitController::GpuFitController(ModelDocument* document, QWidget* window)
    : QObject(window), mDocument(document), mWindow(window) {
    mAction = new QAction(tr("Fit GPU Profile to the Engine Report..."), this);
    mAction->setToolTip(
        tr("Fit the latency model to the layer times TensorRT measured on your GPU: later "
           "predictions use the fitted profile, and the project keeps it"));
    connect(mAction, &QAction::triggered, this, &GpuFitController::chooseGpuAndFit);
    connect(mDocument, &ModelDocument::engineChanged, this, &GpuFitController::update);
    connect(mDocument, &ModelDocument::modelReplaced, this, &GpuFitController::update);
    connect(&mWatcher, &QFutureWatcher<Result<GpuProfile>>::finished, this, &GpuFitController::finished);
    update();
}

GpuFitController::~GpuFitController() {
    mWatcher.waitForFinished();
}

void GpuFitController::update() {
    const auto run = mDocument->engineRun();
    mAction->setEnabled(run && run->report && !run->profilePath.isEmpty() && !mWatcher.isRunning());
}

void GpuFitController::chooseGpuAndFit() {
    QStringList names;
    for (const GpuSpec& gpu : gpuSpecs()) names << QString::fromStdString(gpu.name + "  (" + gpu.displayName + ")");
    int current = 0;
    if (const auto profile = mDocument->gpuProfile())
        for (int i = 0; i < static_cast<int>(gpuSpecs().size()); ++i)
            if (gpuSpecs()[static_cast<size_t>(i)].name == profile->gpu.name) current = i;
    bool ok = false;
    const QString chosen = QInputDialog::getItem(
        mWindow, tr("Fit GPU Profile"), tr("The GPU the engine report was measured on:"), names, current, false, &ok);
    if (ok) fitFor(chosen.section(QLatin1Char(' '), 0, 0));
}

bool GpuFitController::fitFor(const QString& gpu) {
    const auto run = mDocument->engineRun();
    const auto model = mDocument->sharedModel();
    const GpuSpec* spec = findGpu(gpu.toStdString());
    if (!run || !run->report || run->profilePath.isEmpty() || !model || !spec || mWatcher.isRunning()) return false;
    // Continue from the document's profile when it is of this GPU (fitted before on other reports), else the table's.
    const auto current = mDocument->gpuProfile();
    const GpuProfile start = current && current->gpu.name == spec->name ? *current : defaultGpuProfile(*spec);
    const FitReportFiles files{model->path(), run->layersPath.toStdString(), run->profilePath.toStdString()};
    mFittedModel = model.get();
    mWatcher.setFuture(QtConcurrent::run(
        [model, run, start, files, plan = mDocument->plan(), target = mDocument->trtTarget()]() -> Result<GpuProfile> {
            QL_ASSIGN_OR_RETURN(FitSample sample, fitSample(model->graph(), plan, *run->report, target, files));
            return fitGpuProfile(start, {std::move(sample)});
        }));
    update();
    emit message(tr("Fitting the %1 profile to %2...")
                     .arg(QString::fromStdString(spec->name), QFileInfo(run->layersPath).fileName()));
    return true;
}

void GpuFitController::finished() {
    const Result<GpuProfile> outcome = mWatcher.result();
    update();
    if (mFittedModel != mDocument->model()) {  // the model changed while fitting: the fit describes another one
        emit fitted(false);
        return;
    }
    if (!outcome) {
        const QString error = QString::fromStdString(outcome.status().message());
        emit message(tr("GPU profile not fitted: %1").arg(error));
        QMessageBox::warning(mWindow, tr("Fit GPU Profile"), error);
        emit fitted(false);
        return;
    }
    auto profile = std::make_shared<GpuProfile>(*outcome);
    emit message(fittedProfileText(*profile));
    mDocument->setGpuProfile(std::move(profile));
    emit fitted(true);
}

}  // namespace ql::ui
