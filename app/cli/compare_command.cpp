// quantlens-cli compare MODEL --calib CALIB.json --data DATA [--labels L.npy] [--plan PLAN.json]
//                       [--mode accumulated|isolated] [--json] [--samples N] [--trt 8.6|10|11]
//                       [--output-split NAME=BEGIN:END,... [--output-axis AXIS]]
// Runs FP32 and the simulated precision plan (TensorRT's fallbacks applied) on the same samples and prints
// the per-layer error, worst SQNR first (isolated: each layer alone, so no row is the quantized model's error), every
// output's error under the whole plan (SQNR, cosine, max error; top-1 agreement for class vectors, output_kind.h),
// headlined by the worst output, the accuracy with labels, and the calibration diagnosis (calib-* findings, which
// say why a layer's error is high when its input's range is the cause; JSON: "calibration").
// A detector's output that concatenates boxes and Sigmoid scores is also compared per group (detected, or named
// by --output-split; JSON: "output_groups"): one SQNR over pixels and probabilities hides the scores.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "app/cli/calibration_report.h"
#include "app/cli/cli_util.h"
#include "app/cli/commands.h"
#include "app/cli/data_options.h"
#include "app/cli/progress.h"
#include "core/common/json_util.h"
#include "core/export/carried_model.h"
#include "core/export/effective_plan.h"
#include "core/quant/analysis.h"
#include "core/quant/analysis_file.h"
#include "core/quant/output_kind.h"

namespace ql::cli {

namespace {

struct CompareCliOptions {
    std::string model;
    std::string calib;
    std::vector<std::string> data;
    DataLimits limits;
    ImageOptions image;
    std::string labels;
    std::string plan;
    std::string mode = "accumulated";
    std::string trt;  // empty: a --calib project's, else 10 (adoptProjectSettings)
    std::string outputSplit;
    int64_t outputAxis = 1;
    int64_t samples = 0;
    int64_t batch = 8;
    int threads = 1;
    bool progress = false;
    bool json = false;
};

std::string format(const char* pattern, double value) {
    char text[64];
    std::snprintf(text, sizeof(text), pattern, value);
    return text;
}

std::string outputName(const Graph& graph, const OutputError& out) {
    return graph.value(out.output).name;
}

// Each output's error under the whole plan: SQNR, cosine and max error always, top-1 for class vectors.
void printOutputs(const Graph& graph, const AnalysisReport& report) {
    std::printf("outputs (FP32 against the whole plan, %lld samples):\n", static_cast<long long>(report.samples));
    for (const OutputError& out : report.outputErrors) {
        std::printf("  %-24s sqnr %s dB, cosine %.6f, max_abs %.4e", outputName(graph, out).c_str(),
                    format("%.2f", out.metrics.sqnrDb).c_str(), out.metrics.cosine, out.metrics.maxAbs);
        if (out.metrics.nonFinite > 0)
            std::printf(", %lld NaN/inf values where FP32 is finite", static_cast<long long>(out.metrics.nonFinite));
        if (out.agreement.samples > 0) std::printf(", top-1 agreement %.2f%%", 100.0 * out.agreement.top1Agreement);
        std::printf("  (%s%s%s)\n", outputKindName(out.kind), out.kindWhy.empty() ? "" : ": ", out.kindWhy.c_str());
    }
}

// The first output's metric by what it holds (output_kind.h): top-1 agreement and accuracy for class scores (or when
// labels are given), SQNR, cosine and the largest error otherwise; the line says which.
void printFirstOutputMetric(const Graph& graph, const AnalysisReport& report) {
    if (report.outputErrors.empty()) return;
    const OutputError& first = report.outputErrors.front();
    const OutputAgreement& o = report.outputs;
    if (o.samples > 0) {
        std::printf("output metric: top-1 agreement with FP32 (a class vector): %.2f%% of %lld samples\n",
                    100.0 * o.top1Agreement, static_cast<long long>(o.samples));
        if (o.hasLabels)
            std::printf("accuracy: fp32 %.2f%%, quantized %.2f%%, delta %+.2f points\n", 100.0 * o.accuracyFp32,
                        100.0 * o.accuracyQuant, 100.0 * (o.accuracyQuant - o.accuracyFp32));
        return;
    }
    std::printf(
        "output metric: SQNR, cosine and max error (the output '%s' is no class vector, so top-1 "
        "agreement means nothing): sqnr %s dB, cosine %.6f, max_abs %.4e\n",
        outputName(graph, first).c_str(), format("%.2f", first.metrics.sqnrDb).c_str(), first.metrics.cosine,
        first.metrics.maxAbs);
}

// The headline: the worst output, named, so a model's weak output is not hidden behind its first one.
void printWorstOutput(const Graph& graph, const AnalysisReport& report) {
    const OutputError* worst = worstOutput(report);
    if (!worst) return;
    std::printf("worst output: '%s' sqnr %s dB, cosine %.6f, max_abs %.4e (of %zu output%s, whole plan)\n",
                outputName(graph, *worst).c_str(), format("%.2f", worst->metrics.sqnrDb).c_str(), worst->metrics.cosine,
                worst->metrics.maxAbs, report.outputErrors.size(), report.outputErrors.size() == 1 ? "" : "s");
}

void printTable(const Graph& graph, const AnalysisReport& report) {
    if (report.mode == AnalysisMode::Isolated)
        std::printf(
            "mode isolated: each row is that layer quantized alone, on FP32 inputs (its sensitivity), not the "
            "quantized model's error; the outputs below are the whole plan's\n");
    else
        std::printf("mode accumulated: each row has every layer before it quantized too (the whole plan)\n");
    std::printf("%-28s %-14s %-5s %9s %9s %11s %11s  %s\n", "node", "op", "prec",
                report.mode == AnalysisMode::Isolated ? "alone_db" : "sqnr_db", "cosine", "mse", "max_abs", "output");
    for (const LayerError& l : report.layers) {
        const Node& node = graph.node(l.node);
        std::printf("%-28s %-14s %-5s %9s %9.6f %11.4e %11.4e  %s\n", node.name.c_str(), node.opType.c_str(),
                    precisionName(l.precision), format("%.2f", l.metrics.sqnrDb).c_str(), l.metrics.cosine,
                    l.metrics.mse, l.metrics.maxAbs, graph.value(l.output).name.c_str());
    }
    if (!report.bodyLayers.empty()) std::printf("inside If/Loop/Scan bodies, named by where they are:\n");
    std::vector<BodyLayerError> bodyLayers = report.bodyLayers;  // worst first, as the rows above
    std::stable_sort(bodyLayers.begin(), bodyLayers.end(), [](const BodyLayerError& a, const BodyLayerError& b) {
        return a.metrics.sqnrDb < b.metrics.sqnrDb;
    });
    for (const BodyLayerError& l : bodyLayers)
        std::printf("%-28s %-14s %-5s %9s %9.6f %11.4e %11.4e  %s\n", (l.body + l.node).c_str(), l.op.c_str(),
                    precisionName(l.precision), format("%.2f", l.metrics.sqnrDb).c_str(), l.metrics.cosine,
                    l.metrics.mse, l.metrics.maxAbs, l.output.c_str());
    for (const OutputGroupError& g : report.outputGroups)
        std::printf("output channels %s [%lld, %lld) on axis %lld: sqnr %s dB, cosine %.6f, max_abs %.4e\n",
                    g.group.name.c_str(), static_cast<long long>(g.group.begin), static_cast<long long>(g.group.end),
                    static_cast<long long>(g.group.axis), format("%.2f", g.metrics.sqnrDb).c_str(), g.metrics.cosine,
                    g.metrics.maxAbs);
    printOutputs(graph, report);
    printFirstOutputMetric(graph, report);
    printWorstOutput(graph, report);
}

int runCompare(CompareCliOptions options) {
    std::string typing;  // compare has no --typing: a project's is irrelevant to its measurement
    adoptProjectSettings(options.calib, options.plan, options.trt, typing);
    const std::optional<AnalysisMode> mode = parseAnalysisMode(options.mode);
    if (!mode) return failWith(invalidArgument("--mode " + options.mode + ": expected accumulated or isolated"));
    auto loaded = loadModelOrReport(options.model);
    if (!loaded) return kExitBadInput;
    // An exported model is compared as written against the FP32 model it was made from (carried_model.h).
    auto carried = carriedModel(std::move(loaded));
    if (!carried) return failWith(carried.status());
    const Graph& graph = carried->model->graph();
    const auto version = trtVersionOption(options.trt);
    if (!version) return failWith(version.status());
    auto calibration = readCalibrationOption(graph, options.calib);
    if (!calibration) return failWith(calibration.status());
    applyCarriedScales(*calibration, carried->scales);
    auto plan = carried->plan && options.plan.empty()
                    ? Result<PrecisionPlan>(*carried->plan)
                    : effectivePlan(graph, options.plan, *version, Precision::Fp16, &*calibration);
    if (!plan) return failWith(plan.status());
    auto data = openDataOption(graph, options.data, options.limits, options.image);
    if (!data) return failWith(data.status());
    AnalysisOptions analysis{.mode = *mode,
                             .maxSamples = options.samples,
                             .batchSize = options.batch,
                             .threads = options.threads,
                             .labels = {}};
    if (!options.outputSplit.empty()) {
        auto groups = parseOutputGroups(options.outputSplit, options.outputAxis);
        if (!groups) return failWith(groups.status());
        if (Status checked = checkOutputGroups(graph, *groups); !checked) return failWith(checked);
        analysis.outputGroups = std::move(groups).value();
    } else {
        analysis.outputGroups = detectDetectorOutputGroups(graph);
    }
    if (!options.labels.empty()) {
        auto labels = readLabels(options.labels, (*data)->sampleCount());
        if (!labels) return failWith(labels.status());
        analysis.labels = std::move(labels).value();
    }
    auto diagnosis = calibrationReport(graph, *plan, *calibration, *version);
    if (!diagnosis) return failWith(diagnosis.status());
    CommandProgress progress("comparing", options.progress);
    auto report =
        analyzeQuantization(graph, *plan, *calibration, **data, analysis, progress.samples("FP32 and quantized runs"));
    progress.finish();
    if (!report) return failWith(report.status());
    if (options.json) {
        // outputs.kind says which output metrics mean something (output_kind.h): "class_vector", "detection", "values".
        nlohmann::json json = analysisToJson(graph, *report);
        json["calibration"] = calibrationReportJson(graph, *diagnosis);
        std::cout << dumpJson(json) << std::endl;
    } else {
        printTable(graph, *report);
        std::cout << calibrationFindingsText(diagnosis->findings);
    }
    return kExitOk;
}

}  // namespace

void addCompareCommand(CLI::App& app, int& exitCode) {
    auto options = std::make_shared<CompareCliOptions>();
    auto* cmd = app.add_subcommand("compare", "Per-layer INT8/FP16 error against FP32, worst layer first");
    cmd->add_option("MODEL", options->model, "ONNX model file (FP32)")->required();
    cmd->add_option("--calib", options->calib, "Calibration file written by calibrate (CALIB.json)")->required();
    cmd->add_option("--data", options->data, "Evaluation data: PATH or INPUT=PATH (.npy, .npz, folder)")->required();
    addDataLimitsOption(*cmd, options->limits);
    addImageOptions(*cmd, options->image);
    cmd->add_option("--labels", options->labels, "Class labels (.npy of integers) for accuracy");
    cmd->add_option("--plan", options->plan, "Precision plan (JSON); default: INT8 for the weighted layers");
    cmd->add_option("--mode", options->mode, "accumulated (whole plan, default) or isolated (one layer at a time)");
    cmd->add_option("--trt", options->trt, "TensorRT version whose INT8 fallbacks are simulated: 8.6, 10 or 11");
    cmd->add_option("--output-split", options->outputSplit,
                    "Compare channel groups of the first output apart, e.g. boxes=0:4,scores=4:84 (default: "
                    "detected for a detector's box/score Concat)");
    cmd->add_option("--output-axis", options->outputAxis, "The axis --output-split counts channels on (default 1)");
    cmd->add_option("--samples", options->samples, "Use at most N samples (default: all)")
        ->check(CLI::NonNegativeNumber);
    cmd->add_option("--batch", options->batch, "Batch size when the model's batch axis is not fixed (default 8)")
        ->check(CLI::PositiveNumber);
    addThreadsOption(*cmd, options->threads);
    addProgressFlag(*cmd, options->progress);
    cmd->add_flag("--json", options->json, "Print one JSON object");
    cmd->callback([options, &exitCode] { exitCode = runCompare(*options); });
}

}  // namespace ql::cli
