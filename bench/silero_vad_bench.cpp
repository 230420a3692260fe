// Latency of a streaming voice-activity model (Silero VAD v5 / legacy) on the CPU executor: one 512-sample
// chunk per run at 16 kHz, the recurrent state of each run fed to the next, as an application streams audio.
//
//   build/bench/bench_silero_vad [--iters N] [--threads T] MODEL.onnx...
//
// Inputs are found by type: the float [batch, samples] input is the audio, the int64 one the sample rate, the
// float rank-3 ones the recurrent state (zeros at first; the output of the same shape that follows it in the
// output list feeds it next). Prints one JSON line per model: median, min and max microseconds per chunk.
// bench/silero_vad.mjs fetches the models, checks the outputs against ONNX Runtime and times both.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "core/exec/executor.h"
#include "core/model/model.h"

namespace {

using namespace ql;

constexpr int64_t kChunk = 512;
constexpr int64_t kSampleRate = 16000;

struct Feeds {
    NamedTensors inputs;
    std::vector<size_t> stateInputs;  // indices into inputs, in input order
};

Shape concreteShape(const TensorType& type, int64_t samples) {
    Shape shape;
    for (size_t d = 0; d < type.dims.size(); ++d)
        shape.push_back(type.dims[d].known() ? type.dims[d].size : (type.dims.size() == 2 && d == 1 ? samples : 1));
    return shape;
}

Result<Feeds> makeFeeds(const Graph& graph) {
    Feeds feeds;
    for (ValueId id : graph.inputs()) {
        const Value& v = graph.value(id);
        if (v.type.dtype == DataType::Int64) {
            feeds.inputs.emplace_back(v.name,
                                      Tensor::fromVector(DataType::Int64, {}, std::vector<int64_t>{kSampleRate}));
        } else if (v.type.dtype == DataType::Float && v.type.dims.size() == 2) {
            std::vector<float> audio(kChunk);
            for (int64_t i = 0; i < kChunk; ++i)
                audio[static_cast<size_t>(i)] =
                    0.3f * std::sin(2.0f * 3.14159265f * 440.0f * static_cast<float>(i) / kSampleRate);
            feeds.inputs.emplace_back(v.name, Tensor::fromVector(DataType::Float, {1, kChunk}, audio));
        } else if (v.type.dtype == DataType::Float && v.type.dims.size() == 3) {
            feeds.stateInputs.push_back(feeds.inputs.size());
            feeds.inputs.emplace_back(v.name, Tensor::zeros(DataType::Float, concreteShape(v.type, kChunk)));
        } else {
            return invalidArgument("input '" + v.name + "' is neither audio, sample rate nor state");
        }
    }
    return feeds;
}

// The outputs that carry state: those shaped like a state input, in order.
void carryState(Feeds& feeds, const NamedTensors& outputs) {
    size_t next = 0;
    for (const auto& [name, tensor] : outputs) {
        if (next >= feeds.stateInputs.size()) return;
        Tensor& state = feeds.inputs[feeds.stateInputs[next]].second;
        if (tensor.shape() == state.shape()) {
            state = tensor;
            ++next;
        }
    }
}

int benchModel(const std::string& path, int iters, int threads) {
    auto model = Model::load(path);
    if (!model) return std::fprintf(stderr, "%s\n", model.status().message().c_str()), 1;
    auto executor = Executor::create((*model)->graph(), {threads});
    if (!executor) return std::fprintf(stderr, "%s\n", executor.status().message().c_str()), 1;
    auto feeds = makeFeeds((*model)->graph());
    if (!feeds) return std::fprintf(stderr, "%s\n", feeds.status().message().c_str()), 1;
    std::vector<double> micros;
    for (int i = -10; i < iters; ++i) {
        const auto start = std::chrono::steady_clock::now();
        auto outputs = (*executor)->run(feeds->inputs);
        const auto end = std::chrono::steady_clock::now();
        if (!outputs) return std::fprintf(stderr, "%s\n", outputs.status().message().c_str()), 1;
        carryState(*feeds, *outputs);
        if (i >= 0) micros.push_back(std::chrono::duration<double, std::micro>(end - start).count());
    }
    std::sort(micros.begin(), micros.end());
    std::printf(
        "{\"model\": \"%s\", \"threads\": %d, \"iters\": %d, \"median_us\": %.1f, \"min_us\": %.1f, \"max_us\": "
        "%.1f}\n",
        path.c_str(), threads, iters, micros[micros.size() / 2], micros.front(), micros.back());
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    int iters = 200, threads = 1;
    std::vector<std::string> models;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--iters") && i + 1 < argc)
            iters = std::max(1, std::atoi(argv[++i]));
        else if (!std::strcmp(argv[i], "--threads") && i + 1 < argc)
            threads = std::max(1, std::atoi(argv[++i]));
        else
            models.emplace_back(argv[i]);
    }
    if (models.empty()) {
        std::fprintf(stderr, "usage: bench_silero_vad [--iters N] [--threads T] MODEL.onnx...\n");
        return 2;
    }
    int status = 0;
    for (const auto& model : models) status |= benchModel(model, iters, threads);
    return status;
}
