// What `tune` costs: one FP32 pass over N samples against the sensitivity ranking and the whole tune() over the
// same samples, with the peak memory of the process (getrusage). Random inputs (seeded) and a calibration on
// them (auto): the timings do not depend on the weights being trained, the tuning steps do.
//   build-*/bench/bench_tune [--samples N] [--batch B] [--threads T] [--target T] [--budget TRIALS] MODEL.onnx...
// The goal (issue "Accuracy that holds"): the ranking costs at most ~L/2 FP32 passes for L quantized layers.
#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench/bench_data.h"
#include "core/exec/executor.h"
#include "core/lint/lint_policy.h"
#include "core/model/model.h"
#include "core/quant/default_placement.h"
#include "core/quant/tuning.h"

namespace {

using ql::bench::RandomBatches;
using ql::bench::Seconds;
using ql::bench::Stopwatch;

struct Options {
    int64_t samples = 200;
    int64_t batch = 8;
    int threads = 1;
    std::string target = "output-sqnr>=30";
    int64_t budget = 20;
    std::vector<std::string> models;
};

double peakMegabytes() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

ql::Result<Seconds> timeInference(const ql::Graph& graph, const RandomBatches& data, int threads) {
    QL_ASSIGN_OR_RETURN(auto executor, ql::Executor::create(graph, {threads}));
    const Stopwatch watch;
    for (const ql::NamedTensors& batch : data.batches()) {
        QL_ASSIGN_OR_RETURN(auto outputs, executor->run(batch));
    }
    return watch.elapsed();
}

ql::Status benchModel(const std::string& path, const Options& o) {
    QL_ASSIGN_OR_RETURN(auto model, ql::Model::load(path));
    const ql::Graph& graph = model->graph();
    const ql::Batching batching = ql::batchingFor(graph, o.batch);
    const int64_t samples = o.samples - o.samples % batching.size;
    QL_ASSIGN_OR_RETURN(RandomBatches data, RandomBatches::create(graph, samples, batching.size));
    QL_ASSIGN_OR_RETURN(const ql::CalibrationConfig config, ql::parseCalibrationMethod("auto"));
    QL_ASSIGN_OR_RETURN(const ql::CalibrationResult calibration,
                        ql::calibrate(graph, data, config, {.batchSize = batching.size, .threads = o.threads}));
    QL_ASSIGN_OR_RETURN(const Seconds fp32, timeInference(graph, data, o.threads));
    const ql::LintPolicy policy(ql::TrtVersion::Trt10);
    ql::TuneOptions tuning;
    QL_ASSIGN_OR_RETURN(tuning.target, ql::TuneTarget::parse(o.target));
    tuning.maxTrials = o.budget;
    tuning.batchSize = batching.size;
    tuning.threads = o.threads;
    tuning.policies = [&policy](const ql::Graph& g, ql::PrecisionPlan& plan) { plan.applyPolicies(g, {{&policy}}); };
    const Stopwatch watch;
    double rankingEnd = 0.0, rankingStart = 0.0;
    QL_ASSIGN_OR_RETURN(const ql::TuneReport report, ql::tune(graph, ql::defaultPrecisionPlan(graph), calibration, data,
                                                              tuning, [&](const ql::TuneProgress& p) {
                                                                  const double now = watch.elapsed().wall;
                                                                  if (p.phase == "sensitivity" && rankingStart == 0.0)
                                                                      rankingStart = now;
                                                                  if (p.phase == "sensitivity") rankingEnd = now;
                                                              }));
    const Seconds total = watch.elapsed();
    // The FP32 pass over the tuning subset the ranking runs on.
    const double subsetPass = fp32.wall * static_cast<double>(report.subsetSamples) / static_cast<double>(samples);
    const double ranking = rankingEnd - rankingStart;
    std::printf("%s: %lld samples (subset %lld), batch %lld, %d thread(s), %zu quantized layers (L), %zu tensors\n",
                path.c_str(), static_cast<long long>(samples), static_cast<long long>(report.subsetSamples),
                static_cast<long long>(batching.size), o.threads, report.units.size(), report.tensors.size());
    std::printf("  FP32 pass over all samples: %.3f s wall, %.3f s cpu\n", fp32.wall, fp32.cpu);
    std::printf(
        "  sensitivity ranking (L layers + tensors, on the subset): %.3f s = %.1f FP32 passes of the subset "
        "(L/2 = %.1f); %.1f graph passes of node runs per batch\n",
        ranking, ranking / subsetPass, static_cast<double>(report.units.size()) / 2.0, report.sensitivityPasses);
    std::printf(
        "  tune (%s, budget %lld trials): %.3f s wall = %.1f FP32 passes over all samples; %lld trials, "
        "target %s, %zu layers kept out, INT8 MACs %.1f%%\n",
        o.target.c_str(), static_cast<long long>(o.budget), total.wall, total.wall / fp32.wall,
        static_cast<long long>(report.trials), report.met ? "met" : "not met", report.keptOut.size(),
        report.totalMacs ? 100.0 * static_cast<double>(report.int8Macs) / static_cast<double>(report.totalMacs) : 0.0);
    std::printf("  peak memory of the process so far: %.0f MB\n", peakMegabytes());
    return ql::Status::ok();
}

bool parseArgs(int argc, char** argv, Options& o) {
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const bool hasValue = i + 1 < argc;
        if (a == "--samples" && hasValue) {
            o.samples = std::atoll(argv[++i]);
        } else if (a == "--batch" && hasValue) {
            o.batch = std::atoll(argv[++i]);
        } else if (a == "--threads" && hasValue) {
            o.threads = std::atoi(argv[++i]);
        } else if (a == "--target" && hasValue) {
            o.target = argv[++i];
        } else if (a == "--budget" && hasValue) {
            o.budget = std::atoll(argv[++i]);
        } else if (a.starts_with("--")) {
            return false;
        } else {
            o.models.push_back(a);
        }
    }
    return !o.models.empty() && o.samples > 0 && o.batch > 0 && o.threads > 0 && o.budget > 0;
}

}  // namespace

int main(int argc, char** argv) {
    Options options;
    if (!parseArgs(argc, argv, options)) {
        std::fprintf(stderr,
                     "usage: %s [--samples N] [--batch B] [--threads T] [--target T] [--budget TRIALS] MODEL.onnx...\n"
                     "times one FP32 pass, the sensitivity ranking and tune() over the same N random samples\n",
                     argv[0]);
        return 2;
    }
    return ql::bench::benchEachModel(options.models,
                                     [&](const std::string& path) { return benchModel(path, options); });
}
