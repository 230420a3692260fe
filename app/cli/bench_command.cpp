// quantlens-cli bench MODEL [--threads N] [--iters N] [--json]
// Times the CPU executor on seeded random inputs of the model's input shapes (unknown dimensions = 1): median,
// min and max wall time per run, and the process CPU time per run (`cpu_ms`).
#include <algorithm>
#include <chrono>
#include <ctime>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "app/cli/cli_util.h"
#include "app/cli/commands.h"
#include "core/exec/executor.h"
#include "core/exec/random_inputs.h"

namespace ql::cli {

namespace {

struct BenchCommandOptions {
    std::string model;
    int threads = 1;
    int iters = 20;
    int warmup = 3;
    bool json = false;
    bool profile = false;
};

// Time per op type, measured between successive node outputs (one observation per node output).
class OpProfiler : public TensorObserver {
public:
    void start() { mLast = std::chrono::steady_clock::now(); }
    void observe(const Node& producer, ValueId, const Tensor&) override {
        const auto now = std::chrono::steady_clock::now();
        mMs[producer.opType] += std::chrono::duration<double, std::milli>(now - mLast).count();
        mLast = now;
    }
    void print(int runs) const {
        std::vector<std::pair<double, std::string>> rows;
        for (const auto& [op, ms] : mMs) rows.emplace_back(ms / runs, op);
        std::sort(rows.rbegin(), rows.rend());
        for (const auto& [ms, op] : rows) std::cout << "  " << op << ": " << ms << " ms per run" << std::endl;
    }

private:
    std::map<std::string, double> mMs;
    std::chrono::steady_clock::time_point mLast;
};

struct Timing {
    double median = 0, min = 0, max = 0;
    double cpu = 0;  // process CPU time per run (all threads), ms
};

// CPU time of the whole process: on a shared machine a run's wall time includes the time other processes
// held the core, its CPU time does not, so at one thread it estimates the latency on an idle machine.
double processCpuMs() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

Result<Timing> timeRuns(Executor& executor, const NamedTensors& inputs, int warmup, int iters) {
    for (int i = 0; i < warmup; ++i) {
        auto out = executor.run(inputs);
        if (!out) return out.status();
    }
    std::vector<double> ms;
    const double cpuStart = processCpuMs();
    for (int i = 0; i < iters; ++i) {
        const auto start = std::chrono::steady_clock::now();
        auto out = executor.run(inputs);
        if (!out) return out.status();
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    const double cpu = (processCpuMs() - cpuStart) / iters;
    std::sort(ms.begin(), ms.end());
    const size_t n = ms.size();
    return Timing{n % 2 ? ms[n / 2] : (ms[n / 2 - 1] + ms[n / 2]) / 2, ms.front(), ms.back(), cpu};
}

int runBench(const BenchCommandOptions& options) {
    auto model = loadModelOrReport(options.model);
    if (!model) return kExitBadInput;
    auto inputs = randomInputs(model->graph());
    if (!inputs) return failWith(inputs.status().withContext(options.model));
    auto executor = Executor::create(model->graph(), {options.threads});
    if (!executor) return failWith(executor.status());
    auto timing = timeRuns(**executor, *inputs, options.warmup, options.iters);
    if (!timing) return failWith(timing.status());
    if (options.profile && !options.json) {
        OpProfiler profiler;
        RunOptions runOptions;
        runOptions.observer = &profiler;
        for (int i = 0; i < options.iters; ++i) {
            profiler.start();
            if (auto out = (*executor)->run(*inputs, runOptions); !out) return failWith(out.status());
        }
        // The profiler observes every tensor, so these runs go node by node without fusion.
        std::cout << "time per op type (" << options.iters << " runs, unfused):" << std::endl;
        profiler.print(options.iters);
    }
    if (options.json) {
        std::cout << nlohmann::json{{"model", options.model}, {"median_ms", timing->median},
                                    {"min_ms", timing->min},  {"max_ms", timing->max},
                                    {"cpu_ms", timing->cpu},  {"threads", options.threads},
                                    {"iters", options.iters}}
                         .dump(2)
                  << std::endl;
    } else {
        std::cout << "median " << timing->median << " ms, min " << timing->min << " ms, max " << timing->max << " ms ("
                  << options.iters << " runs, " << options.threads << " threads; CPU " << timing->cpu << " ms per run)"
                  << std::endl;
    }
    return kExitOk;
}

}  // namespace

void addBenchCommand(CLI::App& app, int& exitCode) {
    auto options = std::make_shared<BenchCommandOptions>();
    auto* cmd = app.add_subcommand("bench", "Time the CPU executor on random inputs of the model's input shapes");
    cmd->add_option("MODEL", options->model, "ONNX model file")->required();
    addThreadsOption(*cmd, options->threads);
    cmd->add_option("--iters", options->iters, "Timed runs")->check(CLI::Range(1, 100000));
    cmd->add_option("--warmup", options->warmup, "Untimed runs first")->check(CLI::Range(0, 1000));
    cmd->add_flag("--json", options->json, "Print one JSON object");
    cmd->add_flag("--profile", options->profile, "Also print the time spent per op type");
    cmd->callback([options, &exitCode] { exitCode = runBench(*options); });
}

}  // namespace ql::cli
