#include "core/quant/calibration.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/data/input_data.h"
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

}  // namespace
}  // namespace ql
