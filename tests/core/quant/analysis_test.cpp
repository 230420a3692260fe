#include "core/quant/analysis.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/data/input_data.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::ModelBuilder;

constexpr int64_t kSamples = 20;

// x [N, 8] -> MatMul(w1 [8, 6]) -> h -> Relu -> r -> MatMul(w2 [6, 4]) -> y: a tiny 4-class classifier;
// with `hiddenOutput`, h is a second graph output.
std::unique_ptr<Model> model(bool hiddenOutput = false) {
    ModelBuilder b;
    b.input("x", DataType::Float, {-1, 8});
    b.initializer("w1", {8, 6}, test::seededFloats(48, 3));
    b.initializer("w2", {6, 4}, test::seededFloats(24, 4));
    b.node("MatMul", {"x", "w1"}, {"h"}, "fc1");
    b.node("Relu", {"h"}, {"r"}, "relu");
    b.node("MatMul", {"r", "w2"}, {"y"}, "fc2");
    b.output("y");
    if (hiddenOutput) b.output("h");
    return b.load();
}

std::unique_ptr<DataSource> samples(const Graph& graph) {
    auto input =
        ArrayInput::create(Tensor::fromVector(DataType::Float, {kSamples, 8}, test::seededFloats(kSamples * 8, 9)),
                           inputSpecs(graph).front(), "x.npy");
    EXPECT_TRUE(input.isOk()) << input.status().message();
    MultiInputSource::Inputs inputs;
    inputs.emplace_back("x", std::move(input).value());
    return std::move(MultiInputSource::create(std::move(inputs))).value();
}

// Coarse ranges (amax well above the data) so that INT8 error is clearly visible.
CalibrationResult calibration() {
    CalibrationResult c;
    for (const auto& [name, amax] : {std::pair{"x", 4.0f}, std::pair{"r", 8.0f}}) {
        TensorRange r;
        r.name = name;
        r.amax = amax;
        c.activations.push_back(r);
    }
    return c;
}

PrecisionPlan int8Plan(const Graph& graph) {
    PrecisionPlan plan(graph, Precision::Fp32);
    plan.setRequested(*graph.findNode("fc1"), Precision::Int8);
    plan.setRequested(*graph.findNode("fc2"), Precision::Int8);
    return plan;
}

AnalysisOptions isolated() {
    AnalysisOptions options;
    options.mode = AnalysisMode::Isolated;
    return options;
}

AnalysisReport analyze(const Graph& graph, const PrecisionPlan& plan, AnalysisOptions options) {
    auto data = samples(graph);
    options.batchSize = 6;  // a partial last batch too
    auto report = analyzeQuantization(graph, plan, calibration(), *data, options);
    EXPECT_TRUE(report.isOk()) << report.status().message();
    return report.isOk() ? std::move(report).value() : AnalysisReport{};
}

const LayerError* layer(const Graph& graph, const AnalysisReport& r, const std::string& node) {
    for (const LayerError& l : r.layers)
        if (graph.node(l.node).name == node) return &l;
    return nullptr;
}

TEST(AnalysisTest, Fp32PlanHasNoError) {
    const auto m = model();
    const AnalysisReport r = analyze(m->graph(), PrecisionPlan(m->graph(), Precision::Fp32), {});
    ASSERT_EQ(r.layers.size(), 3u);
    for (const LayerError& l : r.layers) {
        EXPECT_TRUE(std::isinf(l.metrics.sqnrDb) && l.metrics.sqnrDb > 0);
        EXPECT_EQ(l.metrics.mse, 0.0);
        EXPECT_EQ(l.metrics.cosine, 1.0);
    }
    EXPECT_EQ(r.outputs.samples, kSamples);
    EXPECT_EQ(r.outputs.top1Agreement, 1.0);
}

TEST(AnalysisTest, AccumulatedReportsEveryOutputWorstFirst) {
    const auto m = model();
    const AnalysisReport r = analyze(m->graph(), int8Plan(m->graph()), {});
    ASSERT_EQ(r.layers.size(), 3u);
    for (size_t i = 1; i < r.layers.size(); ++i) EXPECT_LE(r.layers[i - 1].metrics.sqnrDb, r.layers[i].metrics.sqnrDb);
    const LayerError* fc2 = layer(m->graph(), r, "fc2");
    ASSERT_NE(fc2, nullptr);
    EXPECT_TRUE(std::isfinite(fc2->metrics.sqnrDb));
    EXPECT_GT(fc2->metrics.mse, 0.0);
    EXPECT_LT(fc2->metrics.cosine, 1.0);
    EXPECT_GT(fc2->metrics.maxAbs, 0.0);
    EXPECT_EQ(fc2->metrics.count, kSamples * 4);
    EXPECT_EQ(fc2->precision, Precision::Int8);
}

TEST(AnalysisTest, IsolatedMeasuresEachLayerOnFp32Inputs) {
    const auto m = model();
    const PrecisionPlan plan = int8Plan(m->graph());
    const AnalysisReport acc = analyze(m->graph(), plan, {});
    const AnalysisReport iso = analyze(m->graph(), plan, isolated());
    ASSERT_EQ(iso.layers.size(), 2u);  // only the INT8 nodes
    // fc1 reads the graph input: the same error either way. fc2 alone has less error than with fc1's upstream.
    EXPECT_EQ(layer(m->graph(), iso, "fc1")->metrics.mse, layer(m->graph(), acc, "fc1")->metrics.mse);
    EXPECT_LT(layer(m->graph(), iso, "fc2")->metrics.mse, layer(m->graph(), acc, "fc2")->metrics.mse);
    // Output metrics always come from the whole plan.
    EXPECT_EQ(iso.outputs.top1Agreement, acc.outputs.top1Agreement);
    ASSERT_EQ(iso.outputErrors.size(), 1u);
    ASSERT_EQ(acc.outputErrors.size(), 1u);
    EXPECT_EQ(iso.outputErrors[0].metrics.sqnrDb, acc.outputErrors[0].metrics.sqnrDb);
    EXPECT_EQ(iso.outputErrors[0].metrics.sqnrDb, layer(m->graph(), acc, "fc2")->metrics.sqnrDb);
}

TEST(AnalysisTest, SameInputGivesSameRanking) {
    const auto m = model();
    const PrecisionPlan plan = int8Plan(m->graph());
    const AnalysisReport a = analyze(m->graph(), plan, isolated());
    const AnalysisReport b = analyze(m->graph(), plan, isolated());
    ASSERT_EQ(a.layers.size(), b.layers.size());
    for (size_t i = 0; i < a.layers.size(); ++i) {
        EXPECT_EQ(a.layers[i].node, b.layers[i].node);
        EXPECT_EQ(a.layers[i].metrics.sqnrDb, b.layers[i].metrics.sqnrDb);
    }
}

TEST(AnalysisTest, LabelsGiveBothAccuracies) {
    const auto m = model();
    // Labels = the FP32 predictions, except sample 0 which is labelled with another class.
    auto executor = Executor::create(m->graph());
    ASSERT_TRUE(executor.isOk());
    auto out = (*executor)->run(
        {{"x", Tensor::fromVector(DataType::Float, {kSamples, 8}, test::seededFloats(kSamples * 8, 9))}});
    ASSERT_TRUE(out.isOk());
    std::vector<int64_t> labels;
    const float* y = out->front().second.data<float>();
    for (int64_t i = 0; i < kSamples; ++i) labels.push_back(std::max_element(y + i * 4, y + i * 4 + 4) - (y + i * 4));
    labels[0] = (labels[0] + 1) % 4;
    const AnalysisReport r = analyze(m->graph(), int8Plan(m->graph()), {.labels = labels});
    EXPECT_TRUE(r.outputs.hasLabels);
    EXPECT_DOUBLE_EQ(r.outputs.accuracyFp32, 19.0 / 20.0);
    EXPECT_GE(r.outputs.accuracyQuant, 0.0);
    EXPECT_LE(r.outputs.accuracyQuant, 1.0);
}

AnalysisOptions withPairCap(size_t cap) {
    AnalysisOptions options;
    options.outputPairCap = cap;
    return options;
}

TEST(AnalysisTest, OutputPairsAreACappedSampleOfTheFirstOutput) {
    const auto m = model();
    auto executor = Executor::create(m->graph());
    ASSERT_TRUE(executor.isOk());
    auto out = (*executor)->run(
        {{"x", Tensor::fromVector(DataType::Float, {kSamples, 8}, test::seededFloats(kSamples * 8, 9))}});
    ASSERT_TRUE(out.isOk());
    const std::vector<float> fp32 = out->front().second.toFloats();  // kSamples * 4 values

    EXPECT_TRUE(analyze(m->graph(), int8Plan(m->graph()), {}).outputPairs.empty());  // off by default

    // Under the cap: every element, in order, with its quantized counterpart.
    const AnalysisReport all = analyze(m->graph(), int8Plan(m->graph()), withPairCap(1000));
    ASSERT_EQ(all.outputPairs.size(), fp32.size());
    bool anyDifferent = false;
    for (size_t i = 0; i < fp32.size(); ++i) {
        EXPECT_EQ(all.outputPairs[i].fp32, fp32[i]);
        anyDifferent |= all.outputPairs[i].quantized != fp32[i];
    }
    EXPECT_TRUE(anyDifferent);  // the coarse INT8 ranges change the output

    // Over the cap: exactly `cap` pairs, each one of the output's elements with the same quantized value.
    const AnalysisReport capped = analyze(m->graph(), int8Plan(m->graph()), withPairCap(25));
    ASSERT_EQ(capped.outputPairs.size(), 25u);
    for (const OutputPair& p : capped.outputPairs) {
        const auto it = std::find(fp32.begin(), fp32.end(), p.fp32);
        ASSERT_NE(it, fp32.end());
        EXPECT_EQ(p.quantized, all.outputPairs[static_cast<size_t>(it - fp32.begin())].quantized);
    }
    // Seeded: the same run keeps the same pairs.
    const AnalysisReport again = analyze(m->graph(), int8Plan(m->graph()), withPairCap(25));
    for (size_t i = 0; i < 25; ++i) EXPECT_EQ(again.outputPairs[i].fp32, capped.outputPairs[i].fp32);
}

TEST(AnalysisTest, EveryOutputKeepsItsOwnPairs) {
    const auto m = model(/*hiddenOutput=*/true);
    auto executor = Executor::create(m->graph());
    ASSERT_TRUE(executor.isOk());
    auto out = (*executor)->run(
        {{"x", Tensor::fromVector(DataType::Float, {kSamples, 8}, test::seededFloats(kSamples * 8, 9))}});
    ASSERT_TRUE(out.isOk());
    ASSERT_EQ(out->size(), 2u);

    const AnalysisReport r = analyze(m->graph(), int8Plan(m->graph()), withPairCap(1000));
    ASSERT_EQ(r.outputErrors.size(), 2u);
    for (size_t o = 0; o < 2; ++o) {
        const std::vector<float> fp32 = (*out)[o].second.toFloats();
        const std::vector<OutputPair>& pairs = r.outputErrors[o].pairs;
        ASSERT_EQ(pairs.size(), fp32.size()) << o;
        for (size_t i = 0; i < fp32.size(); ++i) EXPECT_EQ(pairs[i].fp32, fp32[i]);
    }
    EXPECT_EQ(r.outputErrors[1].pairs.size(), size_t{kSamples * 6});
    // The first output's pairs stay where their readers find them.
    ASSERT_EQ(r.outputPairs.size(), r.outputErrors[0].pairs.size());
    for (size_t i = 0; i < r.outputPairs.size(); ++i)
        EXPECT_EQ(r.outputPairs[i].quantized, r.outputErrors[0].pairs[i].quantized);
}

TEST(AnalysisTest, StopTokenCancels) {
    const auto m = model();
    auto data = samples(m->graph());
    std::stop_source stop;
    stop.request_stop();
    auto r = analyzeQuantization(m->graph(), int8Plan(m->graph()), calibration(), *data, {}, {}, stop.get_token());
    ASSERT_FALSE(r.isOk());
    EXPECT_EQ(r.status().code(), StatusCode::Cancelled);
}

TEST(AnalysisTest, ProgressReachesTheTotal) {
    const auto m = model();
    auto data = samples(m->graph());
    int64_t last = 0, total = 0;
    AnalysisOptions options;
    options.batchSize = 6;
    auto r = analyzeQuantization(m->graph(), int8Plan(m->graph()), calibration(), *data, options,
                                 [&](int64_t done, int64_t all) { last = done, total = all; });
    ASSERT_TRUE(r.isOk()) << r.status().message();
    EXPECT_EQ(last, kSamples);
    EXPECT_EQ(total, kSamples);
}

}  // namespace
}  // namespace ql
