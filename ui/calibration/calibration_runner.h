#pragma once
// Runs a calibration (and the error analysis after it) of the document's model on a worker thread
// (QtConcurrent::run; STYLE rule 8) and hands the results to the document on the GUI thread.
//
//   auto* runner = new CalibrationRunner(document, this);
//   connect(runner, &CalibrationRunner::progressChanged, bar, ...);  // fraction, phase, ETA
//   runner->start(request);   // a copy of the plan and the model are taken now
//   runner->cancel();         // returns at once; cancelled() follows within a node's run time
//
// Progress reaches the GUI thread through queued calls, at most one per progressInterval() (and one at
// each phase change). A cancelled or failed run leaves the document's results untouched; a successful one
// replaces the calibration and both analyses (cleared when no analysis was asked for: they would describe
// the old ranges).
#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QObject>
#include <QPointer>
#include <memory>
#include <stop_token>

#include "core/quant/precision_plan.h"
#include "ui/calibration/calibration_request.h"

namespace ql {
class Model;
}

namespace ql::ui {

class ModelDocument;
struct CalibrationOutcome;

class CalibrationRunner : public QObject {
    Q_OBJECT
public:
    explicit CalibrationRunner(ModelDocument* document, QObject* parent = nullptr);
    ~CalibrationRunner() override;  // cancels a running job and waits for it

    // False (and nothing starts) when a run is going on or the document has no model.
    bool start(const CalibrationRequest& request);
    void cancel();
    bool isRunning() const;

    void setProgressInterval(int milliseconds) { mProgressIntervalMs = milliseconds; }
    int progressInterval() const { return mProgressIntervalMs; }

signals:
    void started();
    // fraction in [0, 1] over all phases; etaSeconds < 0 while unknown.
    void progressChanged(double fraction, const QString& phase, double etaSeconds);
    void finished();  // the document holds the new results
    void cancelled();
    void failed(const QString& message);

private:
    void reportProgress(double fraction, const QString& phase);
    void onWorkerFinished();

    QPointer<ModelDocument> mDocument;
    QFutureWatcher<std::shared_ptr<CalibrationOutcome>> mWatcher;
    std::shared_ptr<const Model> mModel;  // the model of the running job
    PrecisionPlan mPlan;                  // the plan its analysis measures
    std::stop_source mStop;
    QElapsedTimer mClock;
    int mProgressIntervalMs = 50;
};

}  // namespace ql::ui
