// Calibration cost: plain FP32 inference over N samples against calibrate() (histogram statistics of
// every activation, all four methods' amax) over the same samples, and the ratio; best of R rounds.
//   build-*/bench/bench_calibration [--samples N] [--batch B] [--threads T] [--rounds R] [--full-statistics]
//       MODEL.onnx...
//   /usr/bin/time -v build-*/bench/bench_calibration --data samples.npy MODEL.onnx   (peak memory)
// Samples are uniform random in [-1, 1) (generated before timing), one batch size for both runs.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <random>
#include <string>
#include <vector>

#include "bench/bench_data.h"
#include "core/data/data_source.h"
#include "core/data/open_data.h"
#include "core/exec/executor.h"
#include "core/model/model.h"
#include "core/quant/calibration.h"

namespace {

using ql::bench::RandomBatches;
using ql::bench::Seconds;
using ql::bench::Stopwatch;

struct Options {
    int64_t samples = 100;
    int64_t batch = 1;
    int threads = 1;
    int rounds = 3;
    std::string data;             // --data: calibrate once from this file instead (for peak-memory runs)
    bool fullStatistics = false;  // --full-statistics: tensors fused away counted on every sample too
    std::vector<std::string> models;
};

ql::Result<Seconds> timeInference(const ql::Graph& graph, const RandomBatches& data, int threads) {
    QL_ASSIGN_OR_RETURN(auto executor, ql::Executor::create(graph, {threads}));
    const Stopwatch watch;
    for (const ql::NamedTensors& batch : data.batches()) {
        auto outputs = executor->run(batch);
        if (!outputs.isOk()) return outputs.status();
    }
    return watch.elapsed();
}

ql::Result<Seconds> timeCalibration(const ql::Graph& graph, RandomBatches& data, const Options& o) {
    ql::CalibrationOptions options;
    options.batchSize = o.batch;
    options.threads = o.threads;
    options.fullStatistics = o.fullStatistics;
    const Stopwatch watch;
    auto result = ql::calibrate(graph, data, ql::CalibrationConfig{}, options);
    if (!result.isOk()) return result.status();
    return watch.elapsed();
}

// Calibration from a data file, timed once: run under /usr/bin/time -v for its peak memory.
ql::Status calibrateFromFile(const ql::Graph& graph, const std::string& path, const Options& o) {
    QL_ASSIGN_OR_RETURN(auto data, ql::openDataSource(ql::inputSpecs(graph), {{"", o.data, {}}}));
    ql::CalibrationOptions options;
    options.batchSize = o.batch;
    options.threads = o.threads;
    options.fullStatistics = o.fullStatistics;
    const Stopwatch watch;
    QL_ASSIGN_OR_RETURN(ql::CalibrationResult result, ql::calibrate(graph, *data, ql::CalibrationConfig{}, options));
    std::printf("%s: calibrated %lld samples of %s in %.3f s (%zu activations)\n", path.c_str(),
                static_cast<long long>(result.samples), o.data.c_str(), watch.elapsed().wall,
                result.activations.size());
    return ql::Status::ok();
}

ql::Status benchModel(const std::string& path, const Options& o) {
    QL_ASSIGN_OR_RETURN(auto model, ql::Model::load(path));
    const ql::Graph& graph = model->graph();
    if (!o.data.empty()) return calibrateFromFile(graph, path, o);
    // A model with a fixed batch axis decides the batch, as calibrate() does.
    int64_t batch = o.batch;
    for (const ql::InputSpec& spec : ql::inputSpecs(graph))
        if (spec.hasShape && !spec.dims.empty() && spec.dims[0] > 0) batch = spec.dims[0];
    const int64_t samples = o.samples - o.samples % batch;
    QL_ASSIGN_OR_RETURN(RandomBatches data, RandomBatches::create(graph, samples, batch));
    Options run = o;
    run.batch = batch;
    Seconds inference, calibration;
    for (int r = 0; r < o.rounds; ++r) {  // interleaved, so load changes hit both alike
        QL_ASSIGN_OR_RETURN(const Seconds i, timeInference(graph, data, o.threads));
        QL_ASSIGN_OR_RETURN(const Seconds c, timeCalibration(graph, data, run));
        inference = {std::min(inference.wall, i.wall), std::min(inference.cpu, i.cpu)};
        calibration = {std::min(calibration.wall, c.wall), std::min(calibration.cpu, c.cpu)};
    }
    std::printf("%s: %lld samples, batch %lld, %d thread(s), best of %d%s\n", path.c_str(),
                static_cast<long long>(samples), static_cast<long long>(batch), o.threads, o.rounds,
                o.fullStatistics ? ", full statistics" : "");
    std::printf("  wall: inference %.3f s, calibrate %.3f s, ratio %.3f\n", inference.wall, calibration.wall,
                calibration.wall / inference.wall);
    std::printf("  cpu:  inference %.3f s, calibrate %.3f s, ratio %.3f\n", inference.cpu, calibration.cpu,
                calibration.cpu / inference.cpu);
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
        } else if (a == "--rounds" && hasValue) {
            o.rounds = std::atoi(argv[++i]);
        } else if (a == "--full-statistics") {
            o.fullStatistics = true;
        } else if (a == "--data" && hasValue) {
            o.data = argv[++i];
        } else if (a.starts_with("--")) {
            return false;
        } else {
            o.models.push_back(a);
        }
    }
    return !o.models.empty() && o.samples > 0 && o.batch > 0 && o.threads > 0 && o.rounds > 0;
}

}  // namespace

int main(int argc, char** argv) {
    Options options;
    if (!parseArgs(argc, argv, options)) {
        std::fprintf(stderr,
                     "usage: %s [--samples N] [--batch B] [--threads T] [--rounds R] [--full-statistics] [--data FILE] "
                     "MODEL.onnx...\n"
                     "times FP32 inference and calibrate() over the same N random samples;\n"
                     "with --data, calibrates once from FILE (e.g. .npy) instead\n",
                     argv[0]);
        return 2;
    }
    return ql::bench::benchEachModel(options.models,
                                     [&](const std::string& path) { return benchModel(path, options); });
}
