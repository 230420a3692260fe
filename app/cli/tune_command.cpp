// quantlens-cli tune MODEL --calib CALIB.json --data DATA [--labels L.npy] --target METRIC -o PLAN.json
//                    [--plan START.json] [--budget N|Ns|Nm]... [--fallback fp16|fp32] [--metric-command 'CMD
//                    {outputs}']
//                    [--samples N] [--subset N] [--batch N] [--threads N] [--trt 8.6|10|11] [--json]
//                    [--objective accuracy|latency] [--gpu NAME | --gpu-profile FILE] [--shapes NAME=DIMS,...]
// Finds the plan whose outputs meet the target (tuning.h) and writes it, per-tensor calibration methods included:
// objective accuracy (the default), the plan closest to all-INT8; objective latency, the plan with the lowest
// predicted engine time on the GPU (INT8 only where it pays), each region's reason in the plan notes. With a GPU,
// every plan tried gets its predicted time in the report (estimates, and said so). Exit 0: the target holds; 1: the
// budget ran out first or no remedy reached it (the best plan is still written); 2: bad input.
#include <cstdio>
#include <iostream>

#include "app/cli/cli_util.h"
#include "app/cli/commands.h"
#include "app/cli/data_options.h"
#include "app/cli/gpu_profile_options.h"
#include "app/cli/progress.h"
#include "core/common/json_util.h"
#include "core/engine/plan_latency.h"
#include "core/engine/prediction_report.h"
#include "core/exec/input_shapes.h"
#include "core/export/effective_plan.h"
#include "core/lint/lint_policy.h"
#include "core/quant/default_placement.h"
#include "core/quant/metric_command.h"
#include "core/quant/tuning_report.h"

namespace ql::cli {

namespace {

struct TuneCliOptions {
    std::string model;
    std::string calib;
    std::vector<std::string> data;
    DataLimits limits;
    ImageOptions image;
    std::string labels;
    std::string target;
    std::string output;
    std::string plan;
    std::vector<std::string> budget;
    std::string fallback = "fp16";
    std::string metricCommand;
    std::string trt = "10";
    std::string objective = "accuracy";
    std::string gpu;
    std::string gpuProfile;
    std::string shapes;
    int64_t samples = 0;
    int64_t subset = 0;
    int64_t batch = 8;
    int threads = 1;
    bool progress = false;
    bool json = false;
};

// "50" trials, "90s" seconds, "5m" minutes.
Status parseBudget(const std::vector<std::string>& budgets, TuneOptions& options) {
    for (const std::string& text : budgets) {
        char* end = nullptr;
        const double value = std::strtod(text.c_str(), &end);
        const std::string unit = end ? std::string(end) : std::string();
        if (text.empty() || end == text.c_str() || !(value > 0.0) || (unit != "" && unit != "s" && unit != "m"))
            return invalidArgument("--budget " + text + ": expected a number of trials (50) or a time (90s, 5m)");
        if (unit.empty())
            options.maxTrials = static_cast<int64_t>(value);
        else
            options.maxSeconds = unit == "m" ? value * 60.0 : value;
    }
    return Status::ok();
}

std::string valueText(const TuneTarget& target, double score) {
    char text[48];
    std::snprintf(text, sizeof(text), "%.3f", target.valueOf(score));
    return text;
}

std::string msText(const std::optional<double>& ms) {
    return ms ? millisecondsText(*ms) : std::string();
}

void printRegions(const Graph& graph, const TuneLatency& latency) {
    if (latency.regions.empty()) return;
    std::printf("regions on %s (INT8 against the fallback, with the reformats at their borders; predicted):\n",
                latency.gpu.c_str());
    for (const RegionDecision& d : latency.regions) {
        std::string what = d.nodes.empty() ? std::string() : graph.node(d.nodes.front()).name;
        if (d.layers > 1) what += " (+" + std::to_string(d.layers - 1) + " layers)";
        std::printf("  %-5s %-40s %s\n", precisionName(d.precision), what.c_str(), d.why.c_str());
    }
}

void printReport(const Graph& graph, const TuneReport& r, const GpuProfile* gpu) {
    const TuneTarget& t = r.target;
    if (r.sensitivityPasses > 0.0)
        std::printf(
            "sensitivity on %lld samples (outputs vs FP32, one change alone; least robust first; cost %.1f "
            "graph passes per batch):\n",
            static_cast<long long>(r.subsetSamples), r.sensitivityPasses);
    for (size_t i = 0; i < r.units.size() && i < 10; ++i)
        std::printf("  layer  %-32s %-14s %8.2f dB\n", r.units[i].name.c_str(), r.units[i].op.c_str(),
                    r.units[i].outputSqnrDb);
    for (size_t i = 0; i < r.tensors.size() && i < 5; ++i)
        std::printf("  tensor %-32s %-14s %8.2f dB\n", graph.value(r.tensors[i].tensor).name.c_str(),
                    amaxMethodKey(r.tensors[i].method), r.tensors[i].outputSqnrDb);
    std::printf("%-4s %-10s %-28s %-20s %12s %-5s %7s %10s  %s\n", "step", "action", "layer", "tensor / precision",
                t.name().c_str(), "kept", "samples", r.latency ? "predicted" : "", "why");
    for (size_t i = 0; i < r.steps.size(); ++i) {
        const TuneStep& s = r.steps[i];
        std::string what = s.tensor.empty() ? std::string() : s.tensor;
        if (s.action == TuneStep::Action::Method) what += " -> " + std::string(amaxMethodKey(s.method));
        if (s.action == TuneStep::Action::Fallback || s.action == TuneStep::Action::GiveBack ||
            s.action == TuneStep::Action::Speed || s.action == TuneStep::Action::AllFp16)
            what = precisionName(s.precision);
        std::printf("%-4zu %-10s %-28s %-20s %12s %-5s %7lld %10s  %s\n", i + 1, tuneActionName(s.action),
                    s.layer == kNoId ? "" : s.layerName.c_str(), what.c_str(), valueText(t, s.score).c_str(),
                    s.kept ? "yes" : "no", static_cast<long long>(s.samples), msText(s.predictedMs).c_str(),
                    s.why.c_str());
    }
    // The layers the --plan kept out of INT8 (left so) count with the tune's.
    // Those TensorRT's rules took out after the tune's moves are no step's: said apart.
    std::string keptOut, byRules, byPlan;
    const auto add = [](std::string& list, const std::string& name) { list += (list.empty() ? "" : ", ") + name; };
    for (NodeId n : r.keptOut) add(outOfInt8ByRules(r.plan, n) ? byRules : keptOut, graph.node(n).name);
    for (const TuneUnit& u : r.keptOutInBodies) add(outOfInt8ByRules(r.plan, u) ? byRules : keptOut, u.name);
    for (NodeId n : r.planKeptOut) add(byPlan, graph.node(n).name);
    for (const auto& [list, head] : {std::pair{&byRules, "then by TensorRT's rules: "}, {&byPlan, "by --plan: "}})
        if (!list->empty()) keptOut += (keptOut.empty() ? "" : "; ") + std::string(head) + *list;
    std::printf(
        "%s: %s %s on %lld samples (start %s); %zu of %zu layers kept out of INT8%s%s%s; INT8 share of MACs "
        "%.1f%%; %lld trials in %.1f s\n",
        r.met ? "target met" : "target NOT met", t.name().c_str(), valueText(t, r.finalScore).c_str(),
        static_cast<long long>(r.samples), valueText(t, r.startScore).c_str(),
        r.keptOut.size() + r.keptOutInBodies.size() + r.planKeptOut.size(),
        static_cast<size_t>(r.startUnits) + r.planKeptOut.size(), keptOut.empty() ? "" : " (", keptOut.c_str(),
        keptOut.empty() ? "" : ")",
        r.totalMacs ? 100.0 * static_cast<double>(r.int8Macs) / static_cast<double>(r.totalMacs) : 0.0,
        static_cast<long long>(r.trials), r.seconds);
    if (!r.latency || gpu == nullptr) return;
    printRegions(graph, *r.latency);
    std::printf("predicted on %s: %s (start %s, all-FP16 %s). %s\n", r.latency->gpu.c_str(),
                millisecondsText(r.latency->finalMs).c_str(), millisecondsText(r.latency->startMs).c_str(),
                millisecondsText(r.latency->fp16Ms).c_str(), estimateNote(*gpu).c_str());
}

int runTune(const TuneCliOptions& options) {
    TuneOptions tuning;
    auto target = TuneTarget::parse(options.target);
    if (!target) return failWith(target.status());
    tuning.target = *target;
    if (Status s = parseBudget(options.budget, tuning); !s.isOk()) return failWith(s);
    const std::optional<Precision> fallback = parsePrecision(options.fallback);
    if (!fallback || *fallback == Precision::Int8)
        return failWith(invalidArgument("--fallback " + options.fallback + ": expected fp16 or fp32"));
    tuning.fallback = *fallback;
    if (tuning.target.needsLabels() && options.labels.empty())
        return failWith(invalidArgument("--target " + options.target + " needs --labels"));
    if (tuning.target.needsMetric()) {
        if (options.metricCommand.empty())
            return failWith(invalidArgument("--target " + options.target + " needs --metric-command"));
        auto metric = metricCommand(options.metricCommand);
        if (!metric) return failWith(metric.status());
        tuning.metric = *metric;
    }
    const auto version = trtVersionOption(options.trt);
    if (!version) return failWith(version.status());
    if (options.objective != "accuracy" && options.objective != "latency")
        return failWith(invalidArgument("--objective " + options.objective + ": expected accuracy or latency"));
    tuning.objective = options.objective == "latency" ? TuneObjective::Latency : TuneObjective::Accuracy;
    std::optional<GpuProfile> gpu;
    if (tuning.objective == TuneObjective::Latency || !options.gpu.empty() || !options.gpuProfile.empty()) {
        auto profile = chosenGpuProfile(options.gpu, options.gpuProfile, options.calib);
        if (!profile)
            return failWith(tuning.objective == TuneObjective::Latency && options.gpu.empty() &&
                                    options.gpuProfile.empty()
                                ? invalidArgument("--objective latency: " + profile.status().message())
                                : profile.status());
        gpu = std::move(profile).value();
    }
    auto model = loadModelOrReport(options.model);
    if (!model) return kExitBadInput;
    const Graph& graph = model->graph();
    // Planning for speed starts the detector heads INT8 (tune() does, for the window's Tune dialog alike).
    auto start = options.plan.empty() ? Result<PrecisionPlan>(defaultPrecisionPlan(graph))
                                      : PrecisionPlan::load(graph, options.plan);
    if (!start) return failWith(start.status());
    auto calibration = readCalibrationOption(graph, options.calib);
    if (!calibration) return failWith(calibration.status());
    auto data = openDataOption(graph, options.data, options.limits, options.image);
    if (!data) return failWith(data.status());
    if (!options.labels.empty()) {
        auto labels = readLabels(options.labels, (*data)->sampleCount());
        if (!labels) return failWith(labels.status());
        tuning.labels = std::move(labels).value();
    }
    const TrtPolicies policies(*version, tuning.fallback, &*calibration);
    tuning.policies = [&policies](const Graph& g, PrecisionPlan& plan) { policies.apply(g, plan); };
    std::unique_ptr<Model> reshaped;  // the model at --shapes, which the engine is predicted at
    if (!options.shapes.empty()) {
        if (!gpu) return failWith(invalidArgument("--shapes sets the input dims the engine is timed at: give --gpu"));
        auto withShapes = withInputShapes(*model, options.shapes);
        if (!withShapes) return failWith(withShapes.status());
        reshaped = std::move(withShapes).value();
        const auto& nodes = reshaped->graph().nodes();
        bool same = nodes.size() == graph.nodes().size();
        for (size_t i = 0; same && i < nodes.size(); ++i) same = nodes[i].name == graph.nodes()[i].name;
        if (!same) return failWith(invalidArgument("--shapes: the model's nodes changed order when reshaped"));
    }
    std::optional<PredictedPlanLatency> latency;
    if (gpu) {
        latency.emplace(reshaped ? reshaped->graph() : graph, TrtTarget{*version, defaultTyping(*version)}, *gpu);
        tuning.latency = &*latency;
    }
    tuning.maxSamples = options.samples;
    tuning.subsetSamples = options.subset;
    tuning.batchSize = options.batch;
    tuning.threads = options.threads;
    CommandProgress progress("tuning", options.progress);
    auto report = tune(graph, *start, *calibration, **data, tuning, [&](const TuneProgress& p) {
        if (p.total > 0) progress.update(p.phase, p.done, p.total, "");
    });
    progress.finish();
    if (!report) return failWith(report.status());
    if (Status s = report->plan.save(graph, options.output); !s.isOk()) return failWith(s);
    if (options.json) {
        nlohmann::json j = tuneReportToJson(graph, *report);
        if (gpu) j["latency"]["estimate"] = estimateJson(*gpu);
        std::cout << dumpJson(j) << std::endl;
    } else {
        printReport(graph, *report, gpu ? &*gpu : nullptr);
        std::cout << "wrote " << options.output << std::endl;
    }
    return report->met ? kExitOk : kExitFindings;
}

}  // namespace

void addTuneCommand(CLI::App& app, int& exitCode) {
    auto options = std::make_shared<TuneCliOptions>();
    auto* cmd = app.add_subcommand(
        "tune", "Find the plan closest to all-INT8 (or the fastest, --objective latency) whose outputs meet a target");
    cmd->add_option("MODEL", options->model, "ONNX model file (FP32)")->required();
    cmd->add_option("--calib", options->calib, "Calibration file written by calibrate (CALIB.json)")->required();
    cmd->add_option("--data", options->data, "Evaluation data: PATH or INPUT=PATH (.npy, .npz, folder)")->required();
    addDataLimitsOption(*cmd, options->limits);
    addImageOptions(*cmd, options->image);
    cmd->add_option("--labels", options->labels, "Class labels (.npy of integers), for accuracy-drop");
    cmd->add_option("--target", options->target,
                    "accuracy-drop<=X (points), top1-agreement>=X (%), output-sqnr>=X (dB), metric>=X or "
                    "metric-drop<=X")
        ->required();
    cmd->add_option("-o,--output", options->output, "Precision plan to write (PLAN.json)")->required();
    cmd->add_option("--plan", options->plan,
                    "Plan to start from (default: INT8 for the weighted layers; a detector's head too with "
                    "--objective latency)");
    cmd->add_option("--budget", options->budget, "Stop after N trials (50) or a time (90s, 5m); repeatable");
    cmd->add_option("--fallback", options->fallback,
                    "Precision of the layers kept out of INT8: fp16 (default) or fp32");
    cmd->add_option("--metric-command", options->metricCommand,
                    "Your metric: 'CMD {outputs}', {outputs} a folder of one .npy per output and sample_indices.npy "
                    "(the --data index of each row: trials run on a subset); prints one number, higher is better");
    cmd->add_option("--trt", options->trt,
                    "TensorRT version whose INT8 fallbacks are simulated and whose engine is predicted: 8.6, 10 or 11");
    cmd->add_option("--objective", options->objective,
                    "accuracy (default): the plan closest to all-INT8 that meets the target; latency: the one with "
                    "the lowest predicted engine time on --gpu (INT8 only where it pays)");
    addGpuOptions(*cmd, options->gpu, options->gpuProfile,
                  "to predict the engine's time on (--objective latency; with accuracy, times are reported)");
    cmd->add_option("--shapes", options->shapes,
                    "Input dims the engine is timed at: NAME=DIMS,... (DIMS like 32x3x224x224; default: the model's, "
                    "an open dim as 1)");
    cmd->add_option("--samples", options->samples, "Use at most N samples (default: all)")
        ->check(CLI::NonNegativeNumber);
    cmd->add_option("--subset", options->subset, "Samples of the tuning subset (default: a quarter, at least 64)")
        ->check(CLI::NonNegativeNumber);
    cmd->add_option("--batch", options->batch, "Batch size when the model's batch axis is not fixed (default 8)")
        ->check(CLI::PositiveNumber);
    addThreadsOption(*cmd, options->threads);
    addProgressFlag(*cmd, options->progress);
    cmd->add_flag("--json", options->json, "Print one JSON object (the report) instead of the table");
    cmd->callback([options, &exitCode] { exitCode = runTune(*options); });
}

}  // namespace ql::cli
