#include "core/quant/calibration.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <tuple>

#include "core/data/input_data.h"
#include "core/quant/histogram_count.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::ModelBuilder;

// x [batch, 4] -> MatMul(w [4, 3]) -> m -> Relu -> y
std::unique_ptr<Model> model(int64_t batch) {
    ModelBuilder b;
    b.input("x", DataType::Float, {batch, 4});
    b.initializer("w", {4, 3}, {1, -2, 0.5f, 0, 1, -1, 3, 0, 0, -1, 1, 2});
    b.node("MatMul", {"x", "w"}, {"m"}, "matmul");
    b.node("Relu", {"m"}, {"y"}, "relu");
    b.output("y");
    return b.load();
}

std::unique_ptr<DataSource> samples(const Graph& graph, const std::vector<float>& values) {
    const InputSpec spec = inputSpecs(graph).front();
    const auto n = static_cast<int64_t>(values.size() / 4);
    auto input = ArrayInput::create(Tensor::fromVector(DataType::Float, {n, 4}, values), spec, "x.npy");
    EXPECT_TRUE(input.isOk()) << input.status().message();
    MultiInputSource::Inputs inputs;
    inputs.emplace_back("x", std::move(input).value());
    auto source = MultiInputSource::create(std::move(inputs));
    EXPECT_TRUE(source.isOk());
    return std::move(source).value();
}

const TensorRange* find(const CalibrationResult& r, const std::string& name) {
    auto it = std::find_if(r.activations.begin(), r.activations.end(), [&](const auto& t) { return t.name == name; });
    return it == r.activations.end() ? nullptr : &*it;
}

TEST(Calibration, MinMaxRangesOfEveryTensorAndPerChannelWeights) {
    auto m = model(-1);
    const Graph& g = m->graph();
    const std::vector<float> x = {1, 2, 3, 4, -5, 0, 1, 0, 0.5f, -1, 0, 2};  // three samples
    auto data = samples(g, x);
    CalibrationOptions options;
    options.batchSize = 2;  // batches of 2 and 1
    int calls = 0;
    auto r = calibrate(g, *data, *parseCalibrationMethod("minmax"), options, [&](int64_t done, int64_t total) {
        ++calls;
        EXPECT_EQ(total, 3);
        EXPECT_LE(done, 3);
    });
    ASSERT_TRUE(r.isOk()) << r.status().message();
    EXPECT_EQ(r->samples, 3);
    EXPECT_EQ(calls, 2);
    // m = x @ w, row by row: [6, 4, 6.5], [-2, 10, -2.5], [-1.5, 0, 5.25]; y = relu(m).
    const TensorRange* xr = find(*r, "x");
    ASSERT_NE(xr, nullptr);
    EXPECT_EQ(xr->amax, 5.0f);
    EXPECT_EQ(xr->min, -5.0f);
    const TensorRange* mr = find(*r, "m");
    ASSERT_NE(mr, nullptr);
    EXPECT_FLOAT_EQ(mr->amax, 10.0f);
    EXPECT_FLOAT_EQ(mr->min, -2.5f);
    const TensorRange* yr = find(*r, "y");
    ASSERT_NE(yr, nullptr);
    EXPECT_FLOAT_EQ(yr->amax, 10.0f);
    EXPECT_EQ(yr->min, 0.0f);
    ASSERT_EQ(r->weights.size(), 1u);
    EXPECT_EQ(r->weights[0].name, "w");
    EXPECT_EQ(r->weights[0].axis, 1);
    EXPECT_EQ(r->weights[0].amax, (std::vector<float>{3, 2, 2}));
}

TEST(Calibration, FixedBatchModelsLeaveThePartialBatchOut) {
    auto m = model(2);
    auto data = samples(m->graph(), std::vector<float>(5 * 4, 1.0f));
    auto r = calibrate(m->graph(), *data, *parseCalibrationMethod("entropy"));
    ASSERT_TRUE(r.isOk()) << r.status().message();
    EXPECT_EQ(r->samples, 4);
    auto few = samples(m->graph(), std::vector<float>(4, 1.0f));
    EXPECT_FALSE(calibrate(m->graph(), *few, {}).isOk());
}

TEST(Calibration, MaxSamplesLimitsTheRun) {
    auto m = model(-1);
    auto data = samples(m->graph(), std::vector<float>(10 * 4, 1.0f));
    CalibrationOptions options;
    options.maxSamples = 3;
    auto r = calibrate(m->graph(), *data, *parseCalibrationMethod("percentile:99"), options);
    ASSERT_TRUE(r.isOk()) << r.status().message();
    EXPECT_EQ(r->samples, 3);
    EXPECT_NEAR(find(*r, "x")->amax, 1.0f, 1e-6);
}

TEST(Calibration, StopsWhenCancelled) {
    auto m = model(-1);
    auto data = samples(m->graph(), std::vector<float>(4 * 4, 1.0f));
    std::stop_source stop;
    stop.request_stop();
    auto r = calibrate(m->graph(), *data, {}, {}, {}, stop.get_token());
    ASSERT_FALSE(r.isOk());
    EXPECT_EQ(r.status().code(), StatusCode::Cancelled);
}

TEST(Calibration, EveryTensorCarriesEachMethodsAmaxAndAPlotHistogram) {
    auto m = model(-1);
    const Graph& g = m->graph();
    const std::vector<float> x = {1, 2, 3, 4, -5, 0, 1, 0, 0.5f, -1, 0, 2};
    for (const std::string method : {"minmax", "entropy", "mse", "percentile:90"}) {
        auto data = samples(g, x);
        auto r = calibrate(g, *data, *parseCalibrationMethod(method));
        ASSERT_TRUE(r.isOk()) << r.status().message();
        const TensorRange* xr = find(*r, "x");
        ASSERT_NE(xr, nullptr);
        ASSERT_TRUE(xr->amaxByMethod.has_value());
        EXPECT_EQ(xr->amax, xr->amaxByMethod->of(r->config.method)) << method;
        EXPECT_EQ(xr->amaxByMethod->minmax, 5.0f);
        EXPECT_FLOAT_EQ(xr->scale(), xr->amax / 127.0f);
        // The observer's 4096 signed bins merged 8 to 1; every value counted once, on its side of 0.
        const Histogram& h = xr->histogram;
        EXPECT_FALSE(h.absolute);
        ASSERT_EQ(h.bins(), kPlotHistogramBins);
        EXPECT_DOUBLE_EQ(h.range, 5.0);
        EXPECT_EQ(h.total(), x.size());
        EXPECT_EQ(h.counts.front(), 1u);  // -5
        EXPECT_EQ(h.counts.back(), 0u);   // 4 is below 5 - 5/256
        const auto negatives = std::accumulate(h.counts.begin(), h.counts.begin() + 256, uint64_t{0});
        EXPECT_EQ(negatives, 2u);  // -5 and -1
    }
}

TEST(Calibration, CopiesOfATensorCarryItsStatistics) {
    // y -> Flatten -> f -> Identity -> i: f and i hold y's values, so they get y's statistics (counted once).
    ModelBuilder b;
    b.input("x", DataType::Float, {-1, 4});
    b.initializer("w", {4, 3}, {1, -2, 0.5f, 0, 1, -1, 3, 0, 0, -1, 1, 2});
    b.node("MatMul", {"x", "w"}, {"m"}, "matmul");
    b.node("Relu", {"m"}, {"y"}, "relu");
    b.node("Flatten", {"y"}, {"f"}, "flatten").i("axis", 0);
    b.node("Identity", {"f"}, {"i"}, "identity");
    b.output("i");
    auto m = b.load();
    const Graph& g = m->graph();
    auto data = samples(g, {1, 2, 3, 4, -5, 0, 1, 0, 0.5f, -1, 0, 2});
    CalibrationOptions options;
    options.batchSize = 2;
    auto r = calibrate(g, *data, CalibrationConfig{}, options);
    ASSERT_TRUE(r.isOk()) << r.status().message();
    const TensorRange* y = find(*r, "y");
    ASSERT_NE(y, nullptr);
    EXPECT_FLOAT_EQ(y->max, 10.0f);
    for (const std::string copy : {"f", "i"}) {
        const TensorRange* c = find(*r, copy);
        ASSERT_NE(c, nullptr) << copy;
        EXPECT_EQ(c->amax, y->amax) << copy;
        EXPECT_EQ(c->min, y->min) << copy;
        EXPECT_EQ(c->max, y->max) << copy;
        EXPECT_EQ(c->histogram.counts, y->histogram.counts) << copy;
        EXPECT_EQ(c->histogram.range, y->histogram.range) << copy;
        ASSERT_TRUE(c->amaxByMethod.has_value());
        EXPECT_EQ(c->amaxByMethod->entropy, y->amaxByMethod->entropy) << copy;
        EXPECT_EQ(c->amaxByMethod->mse, y->amaxByMethod->mse) << copy;
    }
    // Graph value order, one entry per tensor.
    std::vector<std::string> names;
    for (const TensorRange& t : r->activations) names.push_back(t.name);
    EXPECT_EQ(names, (std::vector<std::string>{"x", "m", "y", "f", "i"}));
}

void expectSameActivations(const CalibrationResult& a, const CalibrationResult& b) {
    ASSERT_EQ(a.activations.size(), b.activations.size());
    for (size_t t = 0; t < a.activations.size(); ++t) {
        EXPECT_EQ(a.activations[t].name, b.activations[t].name);
        EXPECT_EQ(a.activations[t].histogram.counts, b.activations[t].histogram.counts) << a.activations[t].name;
        EXPECT_EQ(a.activations[t].amax, b.activations[t].amax);
        EXPECT_EQ(a.activations[t].amaxByMethod->mse, b.activations[t].amaxByMethod->mse);
    }
}

TEST(Calibration, ThreadsAndWhereCountingRunsDoNotChangeTheResult) {
    auto m = model(-1);
    const Graph& g = m->graph();
    std::vector<float> x(4 * 80000);  // batches of 160000 and 120000 values: counted by both threads
    for (size_t k = 0; k < x.size(); ++k) x[k] = std::sin(static_cast<float>(k) * 0.37f) * static_cast<float>(k % 13);
    using Counting = CalibrationOptions::Counting;
    CalibrationOptions inlineOne{.batchSize = 40000, .threads = 1, .counting = Counting::Inline};
    CalibrationOptions inlineTwo{.batchSize = 40000, .threads = 2, .counting = Counting::Inline};
    CalibrationOptions background{.batchSize = 40000, .threads = 1, .counting = Counting::Background};
    auto data = samples(g, x);
    auto a = calibrate(g, *data, CalibrationConfig{}, inlineOne);
    auto b = calibrate(g, *data, CalibrationConfig{}, inlineTwo);
    auto c = calibrate(g, *data, CalibrationConfig{}, background);
    ASSERT_TRUE(a.isOk() && b.isOk() && c.isOk());
    expectSameActivations(*a, *b);
    expectSameActivations(*a, *c);
}

TEST(Calibration, ClampOutputsGetTheStatisticsOfCountingThem) {
    // Relu and Clip outputs are derived from their input's histogram while the bins line up, and counted
    // from the batch on which they stop lining up: either way they match an observer that counted them.
    ModelBuilder b;
    b.input("x", DataType::Float, {-1, 4});
    b.initializer("lo", {}, {-1.0f});
    b.initializer("hi", {}, {2.0f});
    b.node("Relu", {"x"}, {"y"}, "relu");
    b.node("Clip", {"x", "lo", "hi"}, {"c"}, "clip");
    b.node("Relu", {"y"}, {"z"}, "relu_again");
    b.initializer("wide_lo", {}, {-4.0f});
    b.initializer("wide_hi", {}, {4.0f});
    b.node("Clip", {"x", "wide_lo", "wide_hi"}, {"w"}, "clip_wide");  // never clips here
    b.output("w");
    b.output("y");
    b.output("c");
    b.output("z");
    auto m = b.load();
    const Graph& g = m->graph();
    // Batch 1: the positive extreme sets both ranges; batch 2: a negative extreme widens x but not y
    // (y and c stop lining up); w lines up throughout and is derived to the end.
    const std::vector<std::vector<float>> batches = {
        {1.5f, -0.25f, 0.0f, 0.7f, -1.2f, 0.3f, 1.9f, -0.6f},
        {-3.5f, 0.2f, 1.1f, -0.1f, 0.9f, -2.2f, 0.05f, 1.4f},
        {0.4f, -0.9f, 3.5f, 0.0f, -0.3f, 1.2f, 2.5f, -1.5f},
    };
    std::vector<float> x;
    for (const auto& batch : batches) x.insert(x.end(), batch.begin(), batch.end());
    auto data = samples(g, x);
    CalibrationOptions options;
    options.batchSize = 2;  // the batches above
    auto r = calibrate(g, *data, CalibrationConfig{}, options);
    ASSERT_TRUE(r.isOk()) << r.status().message();
    const auto counted = [&](float lo, float hi) {
        auto o = calibrationObserver(CalibrationConfig{});
        for (const auto& batch : batches) {
            std::vector<float> v;
            for (float value : batch) v.push_back(std::min(std::max(value, lo), hi));
            o->observe(Tensor::fromVector(DataType::Float, {static_cast<int64_t>(v.size())}, v));
        }
        return o;
    };
    const float inf = std::numeric_limits<float>::infinity();
    for (const auto& [name, lo, hi] :
         {std::tuple{"y", 0.0f, inf}, {"c", -1.0f, 2.0f}, {"z", 0.0f, inf}, {"w", -4.0f, 4.0f}}) {
        const TensorRange* t = find(*r, name);
        ASSERT_NE(t, nullptr) << name;
        const auto expected = counted(lo, hi);
        EXPECT_EQ(t->histogram.counts, coarsened(expected->histogram(), kPlotHistogramBins).counts) << name;
        EXPECT_EQ(t->histogram.range, expected->histogram().range) << name;
        EXPECT_EQ(t->min, expected->min()) << name;
        EXPECT_EQ(t->max, expected->max()) << name;
        const MethodAmax a = amaxByMethod(*expected, CalibrationConfig{});
        EXPECT_EQ(t->amaxByMethod->entropy, a.entropy) << name;
        EXPECT_EQ(t->amaxByMethod->mse, a.mse) << name;
        EXPECT_EQ(t->amaxByMethod->percentile, a.percentile) << name;
    }
}

TEST(HistogramObserver, ClampedEqualsCountingTheClampedValues) {
    // Same range by construction (both see +-3 first), so the derived histogram must be exact.
    std::vector<float> v = {3.0f, -3.0f};
    for (int i = 0; i < 1000; ++i) v.push_back(std::sin(static_cast<float>(i)) * 2.9f);
    HistogramObserver x(HistogramObserver::Mode::Signed, 64), y(HistogramObserver::Mode::Signed, 64);
    std::vector<float> clamped;
    for (float value : v)
        clamped.push_back(std::min(std::max(value, -3.0f), 3.0f) == value && std::fabs(value) < 3.0f
                              ? std::min(std::max(value, -0.7f), 1.3f)
                              : value);
    x.observe(Tensor::fromVector(DataType::Float, {static_cast<int64_t>(v.size())}, v));
    y.observe(Tensor::fromVector(DataType::Float, {static_cast<int64_t>(clamped.size())}, clamped));
    const HistogramObserver c = x.clamped(-0.7f, 1.3f);
    // The two extremes +-3 are kept in `clamped` to fix y's range at x's; clamp them in the expectation too.
    std::vector<uint64_t> expected = y.histogram().counts;
    const BinMap map(3.0, 64, false);
    --expected[static_cast<size_t>(map.binOf(3.0f))];
    --expected[static_cast<size_t>(map.binOf(-3.0f))];
    ++expected[static_cast<size_t>(map.binOf(1.3f))];
    ++expected[static_cast<size_t>(map.binOf(-0.7f))];
    EXPECT_EQ(c.histogram().counts, expected);
    EXPECT_EQ(c.min(), -0.7f);
    EXPECT_EQ(c.max(), 1.3f);
}

}  // namespace
}  // namespace ql

namespace ql {
namespace {

// x [N, 8, 6, 6] -> Conv -> c (fused away) -> Relu -> r -> Conv -> y: r is the fused group's output.
std::unique_ptr<Model> convModel() {
    ModelBuilder b;
    b.input("x", DataType::Float, {-1, 8, 6, 6});
    for (const char* layer : {"c", "y"}) {
        const std::string name = layer;
        b.initializer(name + "_w", {8, 8, 3, 3}, test::seededFloats(8 * 8 * 9, name == "c" ? 1 : 2, -0.3f, 0.3f));
        b.initializer(name + "_b", {8}, test::seededFloats(8, 3));
    }
    b.node("Conv", {"x", "c_w", "c_b"}, {"c"}, "conv1").ints("pads", {1, 1, 1, 1});
    b.node("Relu", {"c"}, {"r"}, "relu");
    b.node("Conv", {"r", "y_w", "y_b"}, {"y"}, "conv2").ints("pads", {1, 1, 1, 1});
    b.output("y");
    return b.load();
}

std::vector<float> imageValues(int64_t n) {
    return test::seededFloats(static_cast<size_t>(n * 8 * 36), 9, -2, 2);
}

// The samples of `values` ([N, 8, 6, 6]) as the model's input "x".
std::unique_ptr<DataSource> imagesOf(const Graph& graph, const std::vector<float>& values) {
    const auto n = static_cast<int64_t>(values.size() / (8 * 36));
    auto input = ArrayInput::create(Tensor::fromVector(DataType::Float, {n, 8, 6, 6}, values),
                                    inputSpecs(graph).front(), "x.npy");
    EXPECT_TRUE(input.isOk()) << input.status().message();
    MultiInputSource::Inputs inputs;
    inputs.emplace_back("x", std::move(input).value());
    return std::move(MultiInputSource::create(std::move(inputs))).value();
}

std::unique_ptr<DataSource> images(const Graph& graph, int64_t n) {
    return imagesOf(graph, imageValues(n));
}

void expectSameStatistics(const TensorRange& a, const TensorRange& b) {
    EXPECT_EQ(a.histogram.total(), b.histogram.total()) << a.name;
    EXPECT_NEAR(a.min, b.min, 1e-5f * std::abs(b.min)) << a.name;
    EXPECT_NEAR(a.max, b.max, 1e-5f * std::abs(b.max)) << a.name;
    EXPECT_NEAR(a.amax, b.amax, 1e-3f * b.amax) << a.name;
}

TEST(Calibration, TensorsFusedAwayAreCountedOnASixteenthOfTheSamplesSpreadOverTheRun) {
    auto m = convModel();
    const Graph& g = m->graph();
    auto data = images(g, 200);
    CalibrationOptions options{.batchSize = 5};
    auto fast = calibrate(g, *data, CalibrationConfig{}, options);
    ASSERT_TRUE(fast.isOk()) << fast.status().message();
    EXPECT_EQ(fast->samples, 200);
    // The Conv output inside the fused Conv+Relu group: a sixteenth of 200 samples (12) in whole batches of 5,
    // spread over the run (samples 0-4, 85-89 and 170-174); the rest: all of them.
    ASSERT_NE(find(*fast, "c"), nullptr);
    EXPECT_EQ(find(*fast, "c")->samples, 15);
    for (const char* all : {"x", "r", "y"}) EXPECT_EQ(find(*fast, all)->samples, 0) << all;

    options.fullStatistics = true;
    auto full = calibrate(g, *data, CalibrationConfig{}, options);
    const std::vector<float> all = imageValues(200);
    std::vector<float> spread;
    for (size_t first : {0, 85, 170})
        spread.insert(spread.end(), all.begin() + first * 288, all.begin() + (first + 5) * 288);
    auto sixteenth = calibrate(g, *imagesOf(g, spread), CalibrationConfig{}, options);
    ASSERT_TRUE(full.isOk() && sixteenth.isOk());
    for (const TensorRange& t : full->activations) EXPECT_EQ(t.samples, 0) << t.name;
    // Fused-away tensors have the statistics of their samples; the others those of every sample.
    expectSameStatistics(*find(*fast, "c"), *find(*sixteenth, "c"));
    for (const char* all : {"x", "r", "y"}) expectSameStatistics(*find(*fast, all), *find(*full, all));
    EXPECT_EQ(find(*fast, "r")->histogram.total(), 200u * 8 * 36);
}

TEST(Calibration, SmallCalibrationsCountFusedAwayTensorsOnEverySample) {
    auto m = convModel();
    const Graph& g = m->graph();
    auto data = images(g, 40);  // a sixteenth would be 2: at least kFusedAwaySamples (8) are counted
    auto r = calibrate(g, *data, CalibrationConfig{}, CalibrationOptions{.batchSize = 8});
    ASSERT_TRUE(r.isOk()) << r.status().message();
    EXPECT_EQ(find(*r, "c")->samples, CalibrationOptions::kFusedAwaySamples);
    auto all = calibrate(g, *data, CalibrationConfig{}, CalibrationOptions{.maxSamples = 8, .batchSize = 8});
    ASSERT_TRUE(all.isOk());
    EXPECT_EQ(find(*all, "c")->samples, 0);  // 8 samples: every one of them
}

// x -> GlobalAveragePool -> Conv -> Sigmoid -> gate; Mul(x, gate) -> m -> Conv -> y: the executor folds the
// squeeze-excite Mul into the last Conv, but TensorRT quantizes m (that Conv's input).
std::unique_ptr<Model> squeezeExciteModel() {
    ModelBuilder b;
    b.input("x", DataType::Float, {-1, 8, 6, 6});
    for (const char* layer : {"s", "y"}) {
        const std::string name = layer;
        b.initializer(name + "_w", {8, 8, 1, 1}, test::seededFloats(64, name == "s" ? 4 : 5, -0.5f, 0.5f));
        b.initializer(name + "_b", {8}, test::seededFloats(8, 6));
    }
    b.node("GlobalAveragePool", {"x"}, {"p"});
    b.node("Conv", {"p", "s_w", "s_b"}, {"s"});
    b.node("Sigmoid", {"s"}, {"gate"});
    b.node("Mul", {"x", "gate"}, {"m"});
    b.node("Conv", {"m", "y_w", "y_b"}, {"y"});
    b.output("y");
    return b.load();
}

TEST(Calibration, AGatedConvolutionInputIsCountedOnEverySample) {
    auto model = squeezeExciteModel();
    const Graph& g = model->graph();
    auto data = images(g, 200);
    auto r = calibrate(g, *data, CalibrationConfig{}, CalibrationOptions{.batchSize = 5});
    ASSERT_TRUE(r.isOk()) << r.status().message();
    EXPECT_EQ(find(*r, "s")->samples, 15);  // hidden in the Conv+Sigmoid group
    EXPECT_EQ(find(*r, "m")->samples, 0);   // hidden in the gated Conv's group too, but quantized: all samples
    EXPECT_EQ(find(*r, "m")->histogram.total(), 200u * 8 * 36);
}

// x [N, 8, 6, 6] -> Conv (16 identical filters, the sixth 1000 times larger) -> Relu -> r -> Conv -> y.
TEST(Calibration, ChannelRangesOnTheAxisTheConsumerReducesOver) {
    ModelBuilder b;
    b.input("x", DataType::Float, {-1, 8, 6, 6});
    const std::vector<float> filter = test::seededFloats(8, 3);
    std::vector<float> w;
    for (int c = 0; c < 16; ++c)
        for (float f : filter) w.push_back(c == 5 ? 1000.0f * f : f);
    b.initializer("w", {16, 8, 1, 1}, w);
    b.initializer("w2", {4, 16, 1, 1}, test::seededFloats(64, 4));
    b.node("Conv", {"x", "w"}, {"c"}, "conv");
    b.node("Relu", {"c"}, {"r"}, "relu");
    b.node("Conv", {"r", "w2"}, {"y"}, "head");
    b.output("y");
    auto m = b.load();
    const Graph& g = m->graph();
    const std::vector<float> x = imageValues(40);
    auto r = calibrate(g, *imagesOf(g, x), CalibrationConfig{}, CalibrationOptions{.batchSize = 8});
    ASSERT_TRUE(r.isOk()) << r.status().message();
    const TensorRange* input = find(*r, "x");
    ASSERT_EQ(input->channelAmax.size(), 8u);
    EXPECT_EQ(input->channelAxis, 1);
    for (size_t c = 0; c < 8; ++c) {
        float amax = 0.0f;
        for (size_t n = 0; n < 40; ++n)
            for (size_t i = 0; i < 36; ++i) amax = std::max(amax, std::abs(x[(n * 8 + c) * 36 + i]));
        EXPECT_EQ(input->channelAmax[c], amax) << c;
    }
    const TensorRange* relu = find(*r, "r");
    ASSERT_EQ(relu->channelAmax.size(), 16u);
    EXPECT_EQ(relu->channelAxis, 1);
    for (size_t c = 0; c < 16; ++c)
        EXPECT_NEAR(relu->channelAmax[c] / relu->channelAmax[0], c == 5 ? 1000.0f : 1.0f, c == 5 ? 0.1f : 1e-5f) << c;
    EXPECT_EQ(relu->channelAmax[5], relu->max);  // the widest channel holds the tensor's extreme
}

}  // namespace
}  // namespace ql
