#include "ui/calibration/calibration_job.h"

#include <algorithm>
#include <array>

#include "core/lint/lint_policy.h"
#include "core/quant/output_groups.h"

namespace ql::ui {

namespace {

// The phases of a run, each with its cost in model runs: calibration runs the model once per sample, each
// analysis twice (FP32 and the simulated plan). Turns a phase's (done, total) into one overall fraction.
class PhasedProgress {
public:
    explicit PhasedProgress(const JobProgressFn& report) : mReport(report) {}

    void addPhase(std::string name, double cost) {
        mPhases.push_back({std::move(name), cost});
        mTotalCost += cost;
    }

    ProgressFn phase(size_t index) const {
        if (!mReport) return {};
        return [this, index](int64_t done, int64_t total) { report(index, done, total); };
    }

private:
    struct Phase {
        std::string name;
        double cost = 0.0;
    };

    void report(size_t index, int64_t done, int64_t total) const {
        double before = 0.0;
        for (size_t i = 0; i < index; ++i) before += mPhases[i].cost;
        const double share = total > 0 ? static_cast<double>(done) / static_cast<double>(total) : 0.0;
        const double fraction = mTotalCost > 0.0 ? (before + share * mPhases[index].cost) / mTotalCost : 0.0;
        mReport(std::clamp(fraction, 0.0, 1.0),
                mPhases[index].name + ": " + std::to_string(done) + " of " + std::to_string(total) + " samples");
    }

    const JobProgressFn& mReport;
    std::vector<Phase> mPhases;
    double mTotalCost = 0.0;
};

double cappedCount(const DataSource& data, int64_t cap) {
    const int64_t count = data.sampleCount();
    return static_cast<double>(cap > 0 ? std::min(cap, count) : count);
}

Status runJob(const Model& model, const PrecisionPlan& plan, const CalibrationRequest& request,
              const JobProgressFn& progress, std::stop_token stop, CalibrationOutcome& out) {
    const Graph& graph = model.graph();
    // Every file is opened (and checked against the model) before the long work starts.
    QL_ASSIGN_OR_RETURN(std::unique_ptr<DataSource> calibrationData, openData(graph, request.data, "calibration data"));
    std::unique_ptr<DataSource> evaluationData;
    std::vector<int64_t> labels;
    if (request.analyze && !request.evaluationData.empty()) {
        QL_ASSIGN_OR_RETURN(evaluationData, openData(graph, request.evaluationData, "evaluation data"));
    }
    DataSource& evaluation = evaluationData ? *evaluationData : *calibrationData;
    if (request.analyze && !request.labelsPath.empty()) {
        auto read = readLabels(request.labelsPath, evaluation.sampleCount());
        if (!read) return read.status().withContext("labels");
        labels = std::move(read).value();
    }

    PhasedProgress phases(progress);
    const bool calibrating = !request.calibration;
    phases.addPhase("Calibrating", calibrating ? cappedCount(*calibrationData, request.samples) : 0.0);
    const double evaluationRuns = 2.0 * cappedCount(evaluation, request.evaluationSamples);
    if (request.analyze) {
        phases.addPhase("Measuring the error of the whole plan", evaluationRuns);
        phases.addPhase("Measuring the error of each layer alone", evaluationRuns);
    }

    const CalibrationOptions calibrationOptions{
        .maxSamples = request.samples, .batchSize = request.batchSize, .threads = request.threads};
    if (calibrating) {
        QL_ASSIGN_OR_RETURN(CalibrationResult calibration, calibrate(graph, *calibrationData, request.config,
                                                                     calibrationOptions, phases.phase(0), stop));
        out.calibration = std::make_shared<const CalibrationResult>(std::move(calibration));
    } else {
        out.calibration = request.calibration;
    }
    if (!request.analyze) return Status::ok();
    // The FP16 guard reads the activations just calibrated: layers it keeps FP32 must be measured in FP32, as the
    // document (setCalibration) and the export will run them.
    PrecisionPlan analysed = plan;
    const TrtPolicies policies(request.trtVersion, Precision::Fp16, out.calibration.get(), request.trtTyping);
    policies.apply(graph, analysed);

    out.measured = analysed;
    const std::array modes{AnalysisMode::Accumulated, AnalysisMode::Isolated};
    // A detector's boxes and scores apart, as `compare` reports them.
    const std::vector<OutputChannelGroup> outputGroups = detectDetectorOutputGroups(graph);
    for (size_t i = 0; i < modes.size(); ++i) {
        const AnalysisOptions options{.mode = modes[i],
                                      .maxSamples = request.evaluationSamples,
                                      .batchSize = request.batchSize,
                                      .threads = request.threads,
                                      .labels = labels,
                                      .outputPairCap = request.outputPairCap,
                                      .outputGroups = outputGroups};
        QL_ASSIGN_OR_RETURN(AnalysisReport report, analyzeQuantization(graph, analysed, *out.calibration, evaluation,
                                                                       options, phases.phase(i + 1), stop));
        (modes[i] == AnalysisMode::Accumulated ? out.accumulated : out.isolated) =
            std::make_shared<const AnalysisReport>(std::move(report));
    }
    return Status::ok();
}

}  // namespace

Result<std::unique_ptr<DataSource>> openData(const Graph& graph, const std::vector<DataSpec>& specs,
                                             const std::string& what) {
    if (specs.empty()) return invalidArgument(what + ": no file or folder given");
    auto source = openDataSource(inputSpecs(graph), specs);
    if (!source) return source.status().withContext(what);
    return source;
}

CalibrationOutcome runCalibrationJob(const Model& model, const PrecisionPlan& plan, const CalibrationRequest& request,
                                     const JobProgressFn& progress, std::stop_token stop) {
    CalibrationOutcome outcome;
    try {
        outcome.status = runJob(model, plan, request, progress, stop, outcome);
    } catch (const std::exception& e) {  // a bug or out of memory: reported, never thrown across the thread
        outcome.status = internalError(std::string("calibration failed: ") + e.what());
    }
    return outcome;
}

}  // namespace ql::ui
