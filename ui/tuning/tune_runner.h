#pragma once
// Runs `tune` on the document's model, plan and calibration on a worker thread (QtConcurrent::run and a
// QFutureWatcher, as CalibrationRunner does; STYLE rule 8). A finished run hands its report to the document
// (ModelDocument::setTuneReport) and does not touch the plan: applying it is the user's choice (the dialog's
// Apply). A cancelled or failed run changes nothing.
//
//   auto* runner = new TuneRunner(document, this);
//   connect(runner, &TuneRunner::progressChanged, ...);  // fraction (< 0: unknown), phase, step, value
//   runner->start(request);   // copies of the model, plan and calibration are taken now
//   runner->cancel();         // returns at once; cancelled() follows within one batch
#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QObject>
#include <QPointer>
#include <memory>
#include <stop_token>

#include "core/quant/tuning.h"
#include "ui/tuning/tune_request.h"

namespace ql {
class Model;
}

namespace ql::ui {

class ModelDocument;
struct TuneOutcome;

class TuneRunner : public QObject {
    Q_OBJECT
public:
    explicit TuneRunner(ModelDocument* document, QObject* parent = nullptr);
    ~TuneRunner() override;  // cancels a running job and waits for it

    // False (and nothing starts) when a run is going on, or the document has no model or no calibration.
    bool start(const TuneRequest& request);
    void cancel();
    bool isRunning() const;
    // The report of the last finished run, or null.
    std::shared_ptr<const TuneReport> report() const { return mReport; }

    void setProgressInterval(int milliseconds) { mProgressIntervalMs = milliseconds; }

signals:
    void started();
    // fraction in [0, 1], or < 0 while the phase has no known end (no trial or time budget); phase in words
    // ("Trying remedies"); step: what was just tried; value: the target's current value (NaN while unknown).
    void progressChanged(double fraction, const QString& phase, const QString& step, double value);
    void finished();  // report() and the document's tuneReport() hold the result
    void cancelled();
    void failed(const QString& message);

private:
    void reportProgress(const TuneProgress& progress);
    void onWorkerFinished();

    QPointer<ModelDocument> mDocument;
    QFutureWatcher<std::shared_ptr<TuneOutcome>> mWatcher;
    std::shared_ptr<const Model> mModel;  // the model of the running job
    std::stop_source mStop;
    QElapsedTimer mClock;
    TuneRequest mRequest;
    std::shared_ptr<const TuneReport> mReport;
    int mProgressIntervalMs = 50;
};

// The phase of a TuneProgress in words: "reference" -> "Running the FP32 model", ...
QString tunePhaseText(const std::string& phase);

}  // namespace ql::ui
