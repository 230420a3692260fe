#pragma once
// Keeps the document's latency prediction (core/engine/plan_prediction.h) describing the current model, plan,
// TensorRT target and GPU: any change of them marks the prediction stale and starts a new one on a worker thread
// (a prediction per layer of the model makes it too slow for the GUI thread on big models). A newer request
// supersedes a running one: it is told to stop, and its result, should it finish anyway, is dropped. No GPU chosen:
// no prediction. The same run lints the plan with the GPU and hands the latency rules' findings
// (trt-int8-island-slower, ...) to the document's findings. The permanent status-bar label shows the plan's predicted
// latency beside all-FP16 and all-INT8.
#include <QFutureWatcher>
#include <QObject>
#include <QTimer>
#include <memory>
#include <stop_token>

#include "core/engine/plan_prediction.h"
#include "core/lint/finding.h"

class QLabel;
class QWidget;

namespace ql::ui {

class ModelDocument;

// One background run: the plan's prediction and the latency rules' findings on it.
struct PredictionOutcome {
    std::shared_ptr<const PlanPrediction> prediction;
    std::vector<Finding> findings;
};

class LatencyPredictionController : public QObject {
    Q_OBJECT
public:
    LatencyPredictionController(ModelDocument* document, QWidget* window);
    ~LatencyPredictionController() override;

    QLabel* statusLabel() const { return mStatusLabel; }
    bool isBusy() const { return mWatcher.isRunning() || mRestart.isActive(); }

private:
    // Marks the prediction stale and starts a new one once the event loop is back (one change often emits several
    // signals: a target change is also a plan change).
    void scheduleRestart();
    void start();
    void jobFinished();
    void showStatus();

    ModelDocument* mDocument;
    QLabel* mStatusLabel;
    QTimer mRestart;
    QFutureWatcher<std::shared_ptr<const PredictionOutcome>> mWatcher;
    std::stop_source mStop;  // of the running job
    int mGeneration = 0;     // of the latest request; a result of an older one is dropped
    int mJobGeneration = 0;  // of the running job
};

}  // namespace ql::ui
