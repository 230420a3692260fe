#include "ui/tuning/tune_runner.h"

#include <QtConcurrent/QtConcurrentRun>
#include <cmath>
#include <limits>

#include "ui/calibration/job_outcome.h"
#include "ui/calibration/progress_throttle.h"
#include "ui/model_document.h"
#include "ui/tuning/tune_job.h"

namespace ql::ui {

QString tunePhaseText(const std::string& phase) {
    if (phase == "reference") return TuneRunner::tr("Running the FP32 model");
    if (phase == "sensitivity") return TuneRunner::tr("Measuring each layer's effect on the outputs");
    if (phase == "tuning") return TuneRunner::tr("Trying remedies");
    if (phase == "tuning (all samples)") return TuneRunner::tr("Trying remedies (all samples)");
    if (phase == "giving back") return TuneRunner::tr("Giving layers back to INT8");
    return QString::fromStdString(phase);
}

TuneRunner::TuneRunner(ModelDocument* document, QObject* parent) : QObject(parent), mDocument(document) {
    connect(&mWatcher, &QFutureWatcher<std::shared_ptr<TuneOutcome>>::finished, this, &TuneRunner::onWorkerFinished);
}

TuneRunner::~TuneRunner() {
    mStop.request_stop();
    mWatcher.waitForFinished();
}

bool TuneRunner::isRunning() const {
    return mWatcher.isRunning();
}

bool TuneRunner::start(const TuneRequest& request) {
    if (isRunning() || !mDocument || !mDocument->model() || !mDocument->calibration()) return false;
    mModel = mDocument->sharedModel();
    mRequest = request;
    mStop = std::stop_source();
    mClock.start();
    auto job = [this, model = mModel, start = mDocument->plan(), calibration = mDocument->calibration(), request,
                stop = mStop.get_token(), throttle = ProgressThrottle(mProgressIntervalMs)]() mutable {
        const TuneProgressFn progress = [&](const TuneProgress& p) {
            if (!throttle.admit(p.phase, p.total > 0 && p.done >= p.total)) return;
            // Queued: runs on the GUI thread; the destructor waits for the worker, so `this` outlives it.
            QMetaObject::invokeMethod(
                this, [this, p] { reportProgress(p); }, Qt::QueuedConnection);
        };
        return std::make_shared<TuneOutcome>(runTuneJob(*model, start, *calibration, request, progress, stop));
    };
    mWatcher.setFuture(QtConcurrent::run(std::move(job)));
    emit started();
    emit progressChanged(-1.0, tr("Starting..."), {}, std::numeric_limits<double>::quiet_NaN());
    return true;
}

void TuneRunner::cancel() {
    if (isRunning()) mStop.request_stop();
}

void TuneRunner::reportProgress(const TuneProgress& p) {
    if (!isRunning()) return;  // a late report of a job that just ended
    // Trials count against the trial budget, else time against the time budget; the sensitivity pass has its own
    // end. Without a budget the tuning phase has no known end.
    double fraction = -1.0;
    if (p.phase == "sensitivity" && p.total > 0)
        fraction = static_cast<double>(p.done) / static_cast<double>(p.total);
    else if (p.phase != "reference" && p.phase != "sensitivity" && mRequest.maxTrials > 0)
        fraction = static_cast<double>(p.done) / static_cast<double>(mRequest.maxTrials);
    else if (p.phase != "reference" && mRequest.maxSeconds > 0.0)
        fraction = static_cast<double>(mClock.elapsed()) / 1000.0 / mRequest.maxSeconds;
    const double value = p.value && std::isfinite(*p.value) ? *p.value : std::numeric_limits<double>::quiet_NaN();
    QString phase = tunePhaseText(p.phase);
    if (p.phase == "sensitivity" && p.total > 0) phase += tr(": %1 of %2 changes").arg(p.done).arg(p.total);
    if (p.phase != "reference" && p.phase != "sensitivity") {
        phase += mRequest.maxTrials > 0 ? tr(": trial %1 of %2").arg(p.done).arg(mRequest.maxTrials)
                                        : tr(": trial %1").arg(p.done);
        if (mRequest.maxSeconds > 0.0)
            phase += tr(", %1 s of the %2 s budget")
                         .arg(static_cast<double>(mClock.elapsed()) / 1000.0, 0, 'f', 0)
                         .arg(mRequest.maxSeconds, 0, 'f', 0);
    }
    emit progressChanged(fraction < 0.0 ? fraction : std::min(fraction, 1.0), phase, QString::fromStdString(p.step),
                         value);
}

void TuneRunner::onWorkerFinished() {
    const std::shared_ptr<TuneOutcome> outcome = mWatcher.result();
    const std::shared_ptr<const Model> model = std::move(mModel);
    const JobOutcomeCheck check =
        checkJobOutcome(outcome->status, mStop.stop_requested(), mDocument, model, tr("tuned"));
    if (check.verdict == JobVerdict::Cancelled) {
        emit cancelled();
        return;
    }
    if (check.verdict == JobVerdict::Failed) {
        emit failed(check.error);
        return;
    }
    mReport = outcome->report;
    mDocument->setTuneReport(mReport);
    emit finished();
}

}  // namespace ql::ui
