// quantlens-cli calibrate MODEL --data DATA [--method auto|entropy|minmax|percentile[:P]|mse] [--samples N]
//                         -o CALIB.json [--trt-cache FILE] [--trt 8.6|10|11] [--full-statistics] [--plan PLAN.json]
// Runs the model on the calibration data and writes the activation and weight ranges (calibration_file.h),
// and optionally a TensorRT calibration cache (trt_cache.h); then prints the calibration diagnosis (the calib-*
// findings) of the tensors the plan quantizes. --full-statistics counts the tensors fused away
// (a Conv's output before its fused activation) on every sample, not a sixteenth of them (calibration.h).
#include <iostream>

#include "app/cli/calibration_report.h"
#include "app/cli/cli_util.h"
#include "app/cli/commands.h"
#include "app/cli/data_options.h"
#include "app/cli/progress.h"
#include "core/export/effective_plan.h"
#include "core/export/export_files.h"
#include "core/lint/trt_version.h"
#include "core/quant/calibration_file.h"
#include "core/quant/trt_cache.h"

namespace ql::cli {

namespace {

struct CalibrateCliOptions {
    std::string model;
    std::vector<std::string> data;
    DataLimits limits;
    ImageOptions image;
    std::string method = "auto";
    int64_t samples = 0;
    int64_t batch = 8;
    int threads = 1;
    bool progress = false;
    std::string output;
    std::string trtCache;
    std::string trt = "10";
    std::string plan;
    bool fullStatistics = false;
};

int runCalibrate(const CalibrateCliOptions& options) {
    const auto config = parseCalibrationMethod(options.method);
    if (!config) return failWith(config.status());
    const auto version = trtVersionOption(options.trt);
    if (!version) return failWith(version.status());
    const auto cacheVersion = options.trtCache.empty() ? Result<int>(0) : trtCacheVersion(*version);
    if (!cacheVersion) return failWith(cacheVersion.status());
    auto model = loadFloatFormOrReport(options.model);
    if (!model) return kExitBadInput;
    const Graph& graph = model->graph();
    if (!options.plan.empty()) {  // a bad plan is bad input before the long run, not after it
        auto plan = PrecisionPlan::load(graph, options.plan);
        if (!plan) return failWith(plan.status());
    }
    auto data = openDataOption(graph, options.data, options.limits, options.image);
    if (!data) return failWith(data.status());
    const CalibrationOptions run{.maxSamples = options.samples,
                                 .batchSize = options.batch,
                                 .threads = options.threads,
                                 .fullStatistics = options.fullStatistics};
    CommandProgress progress("calibrating", options.progress);
    auto result = calibrate(graph, **data, *config, run, progress.samples());
    progress.finish();
    if (!result) return failWith(result.status());
    if (Status s = saveCalibration(graph, *result, options.output); !s.isOk()) return failWith(s);
    if (!options.trtCache.empty()) {
        if (Status s = saveTrtCache(*result, *cacheVersion, options.trtCache); !s.isOk()) return failWith(s);
    }
    std::cout << options.output << ": " << result->activations.size() << " activation and " << result->weights.size()
              << " weight ranges from " << result->samples << " samples (" << calibrationMethodName(result->config)
              << ")" << std::endl;
    auto plan = effectivePlan(graph, options.plan, *version, Precision::Fp16, &*result);
    if (!plan) return failWith(plan.status());
    auto report = calibrationReport(graph, *plan, *result, *version);
    if (!report) return failWith(report.status());
    std::cout << calibrationFindingsText(report->findings);
    return kExitOk;
}

}  // namespace

void addCalibrateCommand(CLI::App& app, int& exitCode) {
    auto options = std::make_shared<CalibrateCliOptions>();
    auto* cmd = app.add_subcommand("calibrate", "Compute INT8 ranges of every tensor from calibration data");
    cmd->add_option("MODEL", options->model, "ONNX model file (FP32)")->required();
    cmd->add_option("--data", options->data, "Calibration data: PATH or INPUT=PATH (.npy, .npz, folder)")->required();
    addDataLimitsOption(*cmd, options->limits);
    addImageOptions(*cmd, options->image);
    cmd->add_option("--method", options->method,
                    "auto (default: per tensor the method with the best expected SQNR), entropy, minmax, "
                    "percentile[:P] or mse");
    cmd->add_option("--samples", options->samples, "Use at most N samples (default: all)")
        ->check(CLI::NonNegativeNumber);
    cmd->add_option("--batch", options->batch, "Batch size when the model's batch axis is not fixed (default 8)")
        ->check(CLI::PositiveNumber);
    addThreadsOption(*cmd, options->threads);
    addProgressFlag(*cmd, options->progress);
    cmd->add_option("-o,--output", options->output, "Calibration file to write (CALIB.json)")->required();
    cmd->add_option("--trt-cache", options->trtCache, "Also write a TensorRT calibration cache");
    cmd->add_option("--trt", options->trt, "TensorRT version of the cache header and the diagnosis: 8.6, 10 or 11");
    cmd->add_option("--plan", options->plan,
                    "Precision plan whose INT8 layers the diagnosis looks at (default placement)");
    cmd->add_flag("--full-statistics", options->fullStatistics,
                  "Count the tensors fused away (a Conv's output before its fused activation) on every sample, "
                  "not a sixteenth of them spread over the run (slower)");
    cmd->callback([options, &exitCode] { exitCode = runCalibrate(*options); });
}

}  // namespace ql::cli
