#pragma once
// What the benches share: seeded random batches made before timing, and a wall + CPU stopwatch.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <random>
#include <string>
#include <vector>

#include "core/common/status.h"
#include "core/data/data_source.h"

namespace ql::bench {

using Clock = std::chrono::steady_clock;

// Pre-made batches served by index; the random data is made once so neither timed run pays for it.
class RandomBatches final : public ql::DataSource {
public:
    static ql::Result<RandomBatches> create(const ql::Graph& graph, int64_t samples, int64_t batch) {
        RandomBatches data;
        data.mSamples = samples;
        data.mBatch = batch;
        std::mt19937 rng(42);
        std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
        for (int64_t first = 0; first < samples; first += batch) {
            ql::NamedTensors inputs;
            for (const ql::InputSpec& spec : ql::inputSpecs(graph)) {
                if (spec.dtype != ql::DataType::Float || !spec.hasShape)
                    return ql::invalidArgument("input '" + spec.name + "' is not a float tensor of known rank");
                ql::Shape shape = spec.dims;
                shape[0] = std::min(batch, samples - first);
                if (std::any_of(shape.begin(), shape.end(), [](int64_t d) { return d <= 0; }))
                    return ql::invalidArgument("input '" + spec.name + "' has a symbolic dim other than the batch");
                ql::Tensor t(ql::DataType::Float, shape);
                for (float& v : t.span<float>()) v = uniform(rng);
                inputs.emplace_back(spec.name, std::move(t));
            }
            data.mBatches.push_back(std::move(inputs));
        }
        return data;
    }
    int64_t sampleCount() const override { return mSamples; }
    ql::Result<ql::NamedTensors> read(int64_t first, int64_t count) override {
        if (first % mBatch || (count != mBatch && first + count != mSamples))
            return ql::invalidArgument("the bench serves whole batches only");
        return mBatches[static_cast<size_t>(first / mBatch)];
    }
    const std::vector<ql::NamedTensors>& batches() const { return mBatches; }

private:
    std::vector<ql::NamedTensors> mBatches;
    int64_t mSamples = 0, mBatch = 1;
};

// Wall and process CPU seconds: on a loaded machine CPU time is the steadier of the two.
struct Seconds {
    double wall = 1e300, cpu = 1e300;
};

struct Stopwatch {
    Clock::time_point wall = Clock::now();
    std::clock_t cpu = std::clock();
    Seconds elapsed() const {
        return {std::chrono::duration<double>(Clock::now() - wall).count(),
                static_cast<double>(std::clock() - cpu) / CLOCKS_PER_SEC};
    }
};

// Runs `bench` on each model path, printing each failure; the process's exit status: 1 if any failed.
template <typename Bench>
int benchEachModel(const std::vector<std::string>& models, Bench bench) {
    int failures = 0;
    for (const std::string& path : models) {
        const Status status = bench(path);
        if (!status.isOk()) {
            std::fprintf(stderr, "%s: %s\n", path.c_str(), status.message().c_str());
            ++failures;
        }
    }
    return failures ? 1 : 0;
}

}  // namespace ql::bench
