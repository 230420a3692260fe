#include "ui/tuning/tune_job.h"

#include "core/engine/plan_latency.h"
#include "core/lint/lint_policy.h"
#include "ui/calibration/calibration_job.h"

namespace ql::ui {

namespace {

Status runJob(const Model& model, const PrecisionPlan& start, const CalibrationResult& calibration,
              const TuneRequest& request, const TuneProgressFn& progress, std::stop_token stop, TuneOutcome& out) {
    const Graph& graph = model.graph();
    QL_ASSIGN_OR_RETURN(std::unique_ptr<DataSource> data, openData(graph, request.data, "evaluation data"));
    TuneOptions options;
    options.target = request.target;
    if (!request.labelsPath.empty()) {
        auto labels = readLabels(request.labelsPath, data->sampleCount());
        if (!labels) return labels.status().withContext("labels");
        options.labels = std::move(labels).value();
    }
    if (options.target.needsLabels() && options.labels.empty())
        return invalidArgument("the target " + options.target.text() + " needs the labels of the evaluation data");
    // The tuned plan's effective precisions must be what TensorRT runs, with the chosen fallback.
    const TrtPolicies policies(request.trtVersion, request.fallback, &calibration, request.trtTyping);
    options.policies = [&policies](const Graph& g, PrecisionPlan& plan) { policies.apply(g, plan); };
    options.fallback = request.fallback;
    options.keepPlanKeptOut = request.keepPlanKeptOut;
    options.maxTrials = request.maxTrials;
    options.maxSeconds = request.maxSeconds;
    options.maxSamples = request.samples;
    options.subsetSamples = request.subsetSamples;
    options.batchSize = request.batchSize;
    options.threads = request.threads;
    // The latency objective times every plan tried on the request's GPU (predicted, before any build).
    std::optional<PredictedPlanLatency> latency;
    if (request.objective == TuneObjective::Latency) {
        if (!request.gpu) return invalidArgument("the latency objective needs a GPU to time the plans on");
        latency.emplace(graph, TrtTarget{request.trtVersion, request.trtTyping}, *request.gpu);
        options.latency = &*latency;
        options.objective = TuneObjective::Latency;
    }
    QL_ASSIGN_OR_RETURN(TuneReport report, tune(graph, start, calibration, *data, options, progress, stop));
    out.report = std::make_shared<const TuneReport>(std::move(report));
    return Status::ok();
}

}  // namespace

TuneOutcome runTuneJob(const Model& model, const PrecisionPlan& start, const CalibrationResult& calibration,
                       const TuneRequest& request, const TuneProgressFn& progress, std::stop_token stop) {
    TuneOutcome outcome;
    try {
        outcome.status = runJob(model, start, calibration, request, progress, stop, outcome);
    } catch (const std::exception& e) {  // a bug or out of memory: reported, never thrown across the thread
        outcome.status = internalError(std::string("tuning failed: ") + e.what());
    }
    return outcome;
}

}  // namespace ql::ui
