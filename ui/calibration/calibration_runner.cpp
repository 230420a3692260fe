#include "ui/calibration/calibration_runner.h"

#include <QtConcurrent/QtConcurrentRun>

#include "ui/calibration/calibration_job.h"
#include "ui/calibration/job_outcome.h"
#include "ui/calibration/progress_throttle.h"
#include "ui/model_document.h"

namespace ql::ui {

CalibrationRunner::CalibrationRunner(ModelDocument* document, QObject* parent) : QObject(parent), mDocument(document) {
    connect(&mWatcher, &QFutureWatcher<std::shared_ptr<CalibrationOutcome>>::finished, this,
            &CalibrationRunner::onWorkerFinished);
}

CalibrationRunner::~CalibrationRunner() {
    mStop.request_stop();
    mWatcher.waitForFinished();
}

bool CalibrationRunner::isRunning() const {
    return mWatcher.isRunning();
}

bool CalibrationRunner::start(const CalibrationRequest& request) {
    if (isRunning() || !mDocument || !mDocument->model()) return false;
    mModel = mDocument->sharedModel();
    mStop = std::stop_source();
    mClock.start();
    JobProgressFn toGui = [this](double fraction, const std::string& phase) {
        // Queued: runs on the GUI thread; the destructor waits for the worker, so `this` outlives it.
        QMetaObject::invokeMethod(
            this, [this, fraction, text = QString::fromStdString(phase)] { reportProgress(fraction, text); },
            Qt::QueuedConnection);
    };
    mPlan = mDocument->plan();
    CalibrationRequest jobRequest = request;
    jobRequest.trtVersion = mDocument->trtVersion();
    jobRequest.trtTyping = mDocument->trtTarget().typing;
    auto job = [model = mModel, plan = mPlan, jobRequest = std::move(jobRequest), stop = mStop.get_token(),
                toGui = std::move(toGui), throttle = ProgressThrottle(mProgressIntervalMs)]() mutable {
        JobProgressFn report = [&](double fraction, const std::string& phase) {
            if (throttle.admit(std::string_view(phase).substr(0, phase.find(':')), fraction >= 1.0))
                toGui(fraction, phase);
        };
        return std::make_shared<CalibrationOutcome>(runCalibrationJob(*model, plan, jobRequest, report, stop));
    };
    mWatcher.setFuture(QtConcurrent::run(std::move(job)));
    emit started();
    emit progressChanged(0.0, tr("Starting..."), -1.0);
    return true;
}

void CalibrationRunner::cancel() {
    if (isRunning()) mStop.request_stop();
}

void CalibrationRunner::reportProgress(double fraction, const QString& phase) {
    if (!isRunning()) return;  // a late report of a job that just ended
    const double elapsed = static_cast<double>(mClock.elapsed()) / 1000.0;
    // Too early an estimate swings wildly; wait for some progress and some time.
    const double eta = fraction >= 0.02 && elapsed >= 0.5 ? elapsed * (1.0 - fraction) / fraction : -1.0;
    emit progressChanged(fraction, phase, eta);
}

void CalibrationRunner::onWorkerFinished() {
    const std::shared_ptr<CalibrationOutcome> outcome = mWatcher.result();
    const std::shared_ptr<const Model> model = std::move(mModel);
    const JobOutcomeCheck check =
        checkJobOutcome(outcome->status, mStop.stop_requested(), mDocument, model, tr("calibrated"));
    if (check.verdict == JobVerdict::Cancelled) {
        emit cancelled();
        return;
    }
    if (check.verdict == JobVerdict::Failed) {
        emit failed(check.error);
        return;
    }
    if (outcome->calibration != mDocument->calibration()) mDocument->setCalibration(outcome->calibration);
    const PrecisionPlan* measured = outcome->accumulated || outcome->isolated ? &outcome->measured : &mPlan;
    mDocument->setAnalysis(AnalysisMode::Accumulated, outcome->accumulated, measured);
    mDocument->setAnalysis(AnalysisMode::Isolated, outcome->isolated, measured);
    emit progressChanged(1.0, tr("Done"), 0.0);
    emit finished();
}

}  // namespace ql::ui
