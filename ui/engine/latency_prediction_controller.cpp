#include "ui/engine/latency_prediction_controller.h"

#include <QLabel>
#include <QWidget>
#include <QtConcurrent/QtConcurrentRun>

#include "core/export/effective_plan.h"
#include "core/lint/linter.h"
#include "ui/engine/prediction_text.h"
#include "ui/model_document.h"

namespace ql::ui {

namespace {

struct PredictionJob {
    std::shared_ptr<const Model> model;
    PrecisionPlan plan;
    TrtTarget target;
    std::shared_ptr<const GpuProfile> profile;
    std::shared_ptr<const CalibrationResult> calibration;  // the FP16 guard the plan's precisions were decided with
};

// Lint with the GPU, as `lint --gpu` does, keeping the latency rules' findings (the rest the document has).
std::vector<Finding> latencyFindings(const PredictionJob& job) {
    LintOptions options{.version = job.target.version, .typing = job.target.typing};
    options.gpu = job.profile.get();
    std::vector<Finding> findings = lint(job.model->graph(), job.plan, options).findings;
    std::erase_if(findings, [](const Finding& f) { return !isLatencyRule(f.ruleId); });
    return findings;
}

std::shared_ptr<const PredictionOutcome> runPrediction(const PredictionJob& job, std::stop_token stop) {
    const Graph& graph = job.model->graph();
    // The rules the document applied to the plan (ModelDocument::decidePrecisions), for the plans compared with it.
    ApplyPolicies apply = [&](PrecisionPlan plan) {
        return effectivePlan(graph, std::move(plan), job.target.version, Precision::Fp16, job.calibration.get(),
                             job.target.typing);
    };
    auto prediction = predictPlan({.graph = graph,
                                   .plan = job.plan,
                                   .target = job.target,
                                   .profile = *job.profile,
                                   .apply = std::move(apply),
                                   .stopRequested = [&stop] { return stop.stop_requested(); }});
    if (!prediction || stop.stop_requested()) return nullptr;
    return std::make_shared<const PredictionOutcome>(
        PredictionOutcome{std::make_shared<const PlanPrediction>(std::move(*prediction)), latencyFindings(job)});
}

}  // namespace

LatencyPredictionController::LatencyPredictionController(ModelDocument* document, QWidget* window)
    : QObject(window), mDocument(document) {
    mStatusLabel = new QLabel(window);
    mStatusLabel->setObjectName(QStringLiteral("LatencyPredictionLabel"));
    mStatusLabel->hide();
    mRestart.setSingleShot(true);
    mRestart.setInterval(0);
    connect(&mRestart, &QTimer::timeout, this, &LatencyPredictionController::start);
    connect(&mWatcher, &QFutureWatcher<std::shared_ptr<const PredictionOutcome>>::finished, this,
            &LatencyPredictionController::jobFinished);
    for (auto signal : {&ModelDocument::modelReplaced, &ModelDocument::planChanged, &ModelDocument::trtTargetChanged,
                        &ModelDocument::gpuProfileChanged})
        connect(document, signal, this, &LatencyPredictionController::scheduleRestart);
    connect(document, &ModelDocument::latencyPredictionChanged, this, &LatencyPredictionController::showStatus);
}

LatencyPredictionController::~LatencyPredictionController() {
    mStop.request_stop();
    mWatcher.waitForFinished();
}

void LatencyPredictionController::scheduleRestart() {
    ++mGeneration;
    mStop.request_stop();  // what it computes no longer describes the window
    mDocument->markLatencyPredictionStale();
    mRestart.start();
}

void LatencyPredictionController::start() {
    if (!mDocument->model() || !mDocument->gpuProfile()) {
        if (mDocument->latencyPrediction()) {
            mDocument->setLatencyPrediction(nullptr);
            mDocument->setLatencyFindings({});  // no GPU: the latency rules say nothing
        }
        showStatus();
        return;
    }
    if (mWatcher.isRunning()) return;          // jobFinished() starts the newest request
    if (mDocument->isRelintPending()) return;  // its planChanged() schedules the prediction of the edit
    mStop = std::stop_source();
    mJobGeneration = mGeneration;
    PredictionJob job{mDocument->sharedModel(), mDocument->plan(), mDocument->trtTarget(), mDocument->gpuProfile(),
                      mDocument->calibration()};
    mWatcher.setFuture(
        QtConcurrent::run([job = std::move(job), stop = mStop.get_token()] { return runPrediction(job, stop); }));
    showStatus();
}

void LatencyPredictionController::jobFinished() {
    if (mJobGeneration != mGeneration) {  // superseded
        start();
        return;
    }
    if (auto result = mWatcher.result()) {
        mDocument->setLatencyPrediction(result->prediction);
        mDocument->setLatencyFindings(result->findings);
    }
}

void LatencyPredictionController::showStatus() {
    const auto prediction = mDocument->latencyPrediction();
    if (!prediction) {
        mStatusLabel->setVisible(mDocument->model() && mDocument->gpuProfile());
        mStatusLabel->setText(tr("Predicting the engine's latency..."));
        mStatusLabel->setToolTip({});
        return;
    }
    mStatusLabel->setText(predictionStatusText(*prediction, mDocument->isLatencyPredictionStale()));
    mStatusLabel->setToolTip(predictionStatusToolTip(*prediction));
    mStatusLabel->show();
}

}  // namespace ql::ui
