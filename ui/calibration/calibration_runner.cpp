#include "ui/calibration/calibration_runner.h"

#include <QtConcurrent/QtConcurrentRun>
#include <atomic>
#include <chrono>

#include "ui/calibration/calibration_job.h"
#include "ui/model_document.h"

namespace ql::ui {

namespace {

// Passes at most one progress report per interval to `forward` (called on the worker thread), and
// always the first report of a new phase so the phase text never lags.
class ProgressThrottle {
public:
    ProgressThrottle(int intervalMs, JobProgressFn forward)
        : mInterval(std::chrono::milliseconds(intervalMs)), mForward(std::move(forward)) {}

    void operator()(double fraction, const std::string& phase) {
        const auto now = std::chrono::steady_clock::now();
        const std::string phaseName = phase.substr(0, phase.find(':'));
        if (phaseName == mLastPhase && now - mLast < mInterval && fraction < 1.0) return;
        mLast = now;
        mLastPhase = phaseName;
        mForward(fraction, phase);
    }

private:
    std::chrono::steady_clock::duration mInterval;
    JobProgressFn mForward;
    std::chrono::steady_clock::time_point mLast{};
    std::string mLastPhase;
};

}  // namespace

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
    auto job = [model = mModel, plan = mDocument->plan(), request, stop = mStop.get_token(),
                progress = ProgressThrottle(mProgressIntervalMs, std::move(toGui))]() mutable {
        JobProgressFn report = [&progress](double f, const std::string& phase) { progress(f, phase); };
        return std::make_shared<CalibrationOutcome>(runCalibrationJob(*model, plan, request, report, stop));
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
    if (outcome->status.code() == StatusCode::Cancelled || mStop.stop_requested()) {
        emit cancelled();
        return;
    }
    if (!outcome->status.isOk()) {
        emit failed(QString::fromStdString(outcome->status.message()));
        return;
    }
    if (!mDocument || mDocument->sharedModel() != model) {
        emit failed(tr("The model was replaced while it was being calibrated; the results were dropped."));
        return;
    }
    mDocument->setCalibration(outcome->calibration);
    mDocument->setAnalysis(AnalysisMode::Accumulated, outcome->accumulated);
    mDocument->setAnalysis(AnalysisMode::Isolated, outcome->isolated);
    emit progressChanged(1.0, tr("Done"), 0.0);
    emit finished();
}

}  // namespace ql::ui
