// tune(): a planted sensitive layer is found first and fixed with the cheapest remedy; a target that cannot be
// reached ends with met=false and the best plan; partial sensitivity runs equal whole runs; the latency objective
// moves what does not pay before the accuracy steps.
#include "core/quant/tuning.h"

#include <gtest/gtest.h>

#include "core/data/input_data.h"
#include "core/quant/default_placement.h"
#include "core/quant/tuning_evaluator.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::ModelBuilder;

constexpr int64_t kSamples = 96;

// x [N, 16] -> fc1 -> Relu -> fc2 -> Relu -> fc3 -> y [N, 4]; with `asBoxes`, y is reshaped to [N, 2, 2] (two
// boxes of two values, as a detector writes them): no class vector.
std::unique_ptr<Model> model(bool asBoxes = false) {
    ModelBuilder b;
    b.input("x", DataType::Float, {-1, 16});
    b.initializer("w1", {16, 32}, test::seededFloats(512, 3, -0.4f, 0.4f));
    b.initializer("w2", {32, 32}, test::seededFloats(1024, 4, -0.3f, 0.3f));
    b.initializer("w3", {32, 4}, test::seededFloats(128, 5, -0.3f, 0.3f));
    b.node("MatMul", {"x", "w1"}, {"h1"}, "fc1");
    b.node("Relu", {"h1"}, {"r1"}, "relu1");
    b.node("MatMul", {"r1", "w2"}, {"h2"}, "fc2");
    b.node("Relu", {"h2"}, {"r2"}, "relu2");
    b.node("MatMul", {"r2", "w3"}, {asBoxes ? "y4" : "y"}, "fc3");
    if (asBoxes) {
        b.initializer("boxes_shape", DataType::Int64, {3}, std::vector<double>{-1, 2, 2});
        b.node("Reshape", {"y4", "boxes_shape"}, {"y"}, "as_boxes");
    }
    b.output("y");
    return b.load();
}

std::unique_ptr<DataSource> samples(const Graph& graph) {
    auto input =
        ArrayInput::create(Tensor::fromVector(DataType::Float, {kSamples, 16}, test::seededFloats(kSamples * 16, 9)),
                           inputSpecs(graph).front(), "x.npy");
    EXPECT_TRUE(input.isOk()) << input.status().message();
    MultiInputSource::Inputs inputs;
    inputs.emplace_back("x", std::move(input).value());
    return std::move(MultiInputSource::create(std::move(inputs))).value();
}

CalibrationResult calibrated(const Graph& graph) {
    auto data = samples(graph);
    auto result = calibrate(graph, *data, *parseCalibrationMethod("minmax"));
    EXPECT_TRUE(result.isOk()) << result.status().message();
    return std::move(result).value();
}

TensorRange& rangeNamed(CalibrationResult& c, const std::string& name) {
    for (TensorRange& r : c.activations)
        if (r.name == name) return r;
    throw std::runtime_error("no range " + name);
}

// r2 (fc3's input) calibrated as if by a method that clips nearly everything.
CalibrationResult plantedClipping(const Graph& graph, bool withAlternatives) {
    CalibrationResult c = calibrated(graph);
    TensorRange& r2 = rangeNamed(c, "r2");
    r2.amax = r2.max * 0.02f;
    r2.method = CalibrationMethod::Entropy;
    r2.amaxByMethod->entropy = r2.amax;
    if (!withAlternatives) r2.amaxByMethod.reset();
    return c;
}

TuneOptions options(const std::string& target) {
    TuneOptions o;
    o.target = *TuneTarget::parse(target);
    o.subsetSamples = 32;
    return o;
}

const TuneStep* firstChange(const TuneReport& r) {
    for (const TuneStep& s : r.steps)
        if (s.action == TuneStep::Action::Method || s.action == TuneStep::Action::Fallback) return &s;
    return nullptr;
}

TEST(Tune, APlantedClippedTensorIsFoundFirstAndFixedByAnotherMethodKeepingInt8) {
    const auto m = model();
    const Graph& graph = m->graph();
    auto data = samples(graph);
    auto report =
        tune(graph, defaultPrecisionPlan(graph), plantedClipping(graph, true), *data, options("output-sqnr>=25"));
    ASSERT_TRUE(report.isOk()) << report.status().message();
    EXPECT_LT(report->target.valueOf(report->startScore), 25.0);
    ASSERT_FALSE(report->units.empty());
    EXPECT_EQ(graph.node(report->units.front().layer).name, "fc3");
    EXPECT_EQ(graph.value(report->tensors.front().tensor).name, "r2");
    const TuneStep* first = firstChange(*report);
    ASSERT_NE(first, nullptr);
    EXPECT_EQ(first->action, TuneStep::Action::Method);
    EXPECT_EQ(first->tensor, "r2");
    EXPECT_TRUE(first->kept);
    EXPECT_TRUE(report->met);
    EXPECT_GE(report->target.valueOf(report->finalScore), 25.0);
    EXPECT_TRUE(report->keptOut.empty());
    EXPECT_EQ(report->plan.tensorMethods().count("r2"), 1u);
    EXPECT_EQ(report->int8Macs, report->totalMacs);
}

TEST(Tune, WithoutAnotherMethodThePlantedLayerFallsBackAloneAndTheOthersStayInt8) {
    const auto m = model();
    const Graph& graph = m->graph();
    auto data = samples(graph);
    auto report =
        tune(graph, defaultPrecisionPlan(graph), plantedClipping(graph, false), *data, options("output-sqnr>=25"));
    ASSERT_TRUE(report.isOk()) << report.status().message();
    const TuneStep* first = firstChange(*report);
    ASSERT_NE(first, nullptr);
    EXPECT_EQ(first->action, TuneStep::Action::Fallback);
    EXPECT_EQ(graph.node(first->layer).name, "fc3");
    EXPECT_TRUE(report->met);
    ASSERT_EQ(report->keptOut.size(), 1u);
    EXPECT_EQ(graph.node(report->keptOut[0]).name, "fc3");
    EXPECT_EQ(report->plan.effective(*graph.findNode("fc3")), Precision::Fp16);
    EXPECT_EQ(report->plan.effective(*graph.findNode("fc1")), Precision::Int8);
    EXPECT_EQ(report->plan.effective(*graph.findNode("fc2")), Precision::Int8);
    EXPECT_LT(report->int8Macs, report->totalMacs);
}

TEST(Tune, AnUnreachableTargetEndsUnmetWithTheBestPlanWithinTheBudget) {
    const auto m = model();
    const Graph& graph = m->graph();
    auto data = samples(graph);
    TuneOptions o = options("output-sqnr>=150");
    o.maxTrials = 3;
    auto report = tune(graph, defaultPrecisionPlan(graph), plantedClipping(graph, false), *data, o);
    ASSERT_TRUE(report.isOk()) << report.status().message();
    EXPECT_FALSE(report->met);
    EXPECT_LE(report->trials, 3);
    EXPECT_EQ(report->plan.size(), graph.nodes().size());
    // The best plan: never worse than the start.
    EXPECT_GE(report->finalScore, report->startScore);
}

TEST(Tune, GivesBackInt8WhenTheTargetHoldsWithout) {
    const auto m = model();
    const Graph& graph = m->graph();
    auto data = samples(graph);
    // An easy target: the start plan already meets it, nothing changes.
    auto report = tune(graph, defaultPrecisionPlan(graph), calibrated(graph), *data, options("output-sqnr>=5"));
    ASSERT_TRUE(report.isOk()) << report.status().message();
    EXPECT_TRUE(report->met);
    EXPECT_TRUE(report->keptOut.empty());
    EXPECT_EQ(firstChange(*report), nullptr);
}

// Issue 29 item 6: a layer the start plan keeps out of INT8 (a user's FP16) is not a unit, but it is a layer out of
// INT8: the report names it (planKeptOut) beside the tune's own; with keepPlanKeptOut off it starts INT8 and is
// tuned like the rest.
TEST(Tune, TheStartPlansFp16LayersAreReportedAndKeptOrReleased) {
    const auto m = model();
    const Graph& graph = m->graph();
    const NodeId fc2 = *graph.findNode("fc2");
    const NodeId relu2 = *graph.findNode("relu2");
    PrecisionPlan start = defaultPrecisionPlan(graph);
    start.setRequested(fc2, Precision::Fp16);
    start.setRequested(relu2, Precision::Fp16);  // with its activation, as TensorRT's fallbacks would leave it
    const CalibrationResult calibration = calibrated(graph);
    auto layers = planKeptOutLayers(graph, start, calibration);
    ASSERT_TRUE(layers.isOk()) << layers.status().message();
    EXPECT_EQ(*layers, std::vector<NodeId>{fc2});
    EXPECT_TRUE(planKeptOutLayers(graph, defaultPrecisionPlan(graph), calibration)->empty());

    auto data = samples(graph);
    auto kept = tune(graph, start, calibration, *data, options("output-sqnr>=5"));
    ASSERT_TRUE(kept.isOk()) << kept.status().message();
    EXPECT_TRUE(kept->met);
    EXPECT_EQ(kept->planKeptOut, std::vector<NodeId>{fc2});
    EXPECT_TRUE(kept->keptOut.empty());
    EXPECT_EQ(kept->startUnits, 2);  // fc1 and fc3
    EXPECT_EQ(kept->plan.requested(fc2), Precision::Fp16);

    TuneOptions release = options("output-sqnr>=5");
    release.keepPlanKeptOut = false;
    auto released = tune(graph, start, calibration, *samples(graph), release);
    ASSERT_TRUE(released.isOk()) << released.status().message();
    EXPECT_TRUE(released->planKeptOut.empty());
    EXPECT_EQ(released->startUnits, 3);
    EXPECT_EQ(released->plan.requested(fc2), Precision::Int8);  // the easy target holds with it INT8
    EXPECT_EQ(released->plan.requested(relu2), Precision::Int8);
}

TEST(Tune, AccuracyDropNeedsALabelPerSample) {
    const auto m = model();
    const Graph& graph = m->graph();
    auto data = samples(graph);
    TuneOptions o = options("accuracy-drop<=0.5");
    o.labels = {0, 1, 2};
    auto report = tune(graph, defaultPrecisionPlan(graph), calibrated(graph), *data, o);
    ASSERT_FALSE(report.isOk());
    EXPECT_NE(report.status().message().find("label"), std::string::npos);
}

// Top-1 of a detector's output is the same element staying the largest: such a tune would be "met" at 100 %
// while saying nothing. It is refused, naming the output and what to use instead; output-sqnr runs.
TEST(Tune, ATop1TargetOnAnOutputThatIsNoClassVectorIsRefused) {
    const auto m = model(true);
    const Graph& graph = m->graph();
    for (const char* target : {"top1-agreement>=99", "accuracy-drop<=0.5"}) {
        auto data = samples(graph);
        TuneOptions o = options(target);
        o.labels.assign(kSamples, 0);
        auto report = tune(graph, defaultPrecisionPlan(graph), calibrated(graph), *data, o);
        ASSERT_FALSE(report.isOk()) << target;
        const std::string& message = report.status().message();
        EXPECT_NE(message.find("the first output 'y' ["), std::string::npos) << message;
        EXPECT_NE(message.find(",2,2] holds values (4 per sample), not one class vector"), std::string::npos)
            << message;
        EXPECT_NE(message.find("output-sqnr>="), std::string::npos) << message;
    }
    auto data = samples(graph);
    EXPECT_TRUE(tune(graph, defaultPrecisionPlan(graph), calibrated(graph), *data, options("output-sqnr>=20")).isOk());
}

// Times a plan by its MatMuls: 1 ms INT8, 2 ms otherwise, but `slow` 3 ms INT8 (its INT8 does not pay), plus
// `int8Ms` when anything runs INT8 (as the input's reformat would); each INT8 MatMul is an island of its own.
class FakeLatency final : public PlanLatencyModel {
public:
    FakeLatency(const Graph& graph, NodeId slow, double int8Ms = 0.0) : mGraph(graph), mSlow(slow), mInt8Ms(int8Ms) {}
    PlanTime time(const PrecisionPlan& plan) const override {
        PlanTime t;
        bool int8 = false;
        for (const Node& n : mGraph.nodes()) {
            if (n.opType != "MatMul") continue;
            int8 = int8 || plan.effective(n.id) == Precision::Int8;
            t.totalMs += plan.effective(n.id) != Precision::Int8 ? 2.0 : n.id == mSlow ? 3.0 : 1.0;
        }
        if (int8) t.totalMs += mInt8Ms;
        return t;
    }
    std::vector<Int8Island> int8Islands(const PrecisionPlan& plan) const override {
        std::vector<Int8Island> islands;
        for (const Node& n : mGraph.nodes())
            if (n.opType == "MatMul" && plan.effective(n.id) == Precision::Int8) islands.push_back({{n.id}});
        return islands;
    }
    std::string gpu() const override { return "fake"; }

private:
    const Graph& mGraph;
    NodeId mSlow;
    double mInt8Ms;
};

// fc2's INT8 does not pay and moves for speed; fc3's input is clipped (no other method), so the accuracy steps
// that follow keep fc3 out of INT8; fc1 pays and stays, noted so. Every plan tried has its predicted time.
TEST(Tune, TheLatencyObjectiveMovesWhereInt8DoesNotPayThenMeetsTheTarget) {
    const auto m = model();
    const Graph& graph = m->graph();
    auto data = samples(graph);
    const NodeId fc1 = *graph.findNode("fc1"), fc2 = *graph.findNode("fc2"), fc3 = *graph.findNode("fc3");
    const FakeLatency latency(graph, fc2);
    TuneOptions o = options("output-sqnr>=25");
    o.objective = TuneObjective::Latency;
    o.latency = &latency;
    auto report = tune(graph, defaultPrecisionPlan(graph), plantedClipping(graph, false), *data, o);
    ASSERT_TRUE(report.isOk()) << report.status().message();
    EXPECT_TRUE(report->met);
    EXPECT_EQ(report->plan.effective(fc1), Precision::Int8);
    EXPECT_EQ(report->plan.effective(fc2), Precision::Fp16);
    EXPECT_EQ(report->plan.effective(fc3), Precision::Fp16);
    EXPECT_TRUE(report->plan.placementNote(fc2).starts_with("tune: fp16 for speed on fake, INT8 is 1.000 ms slower"))
        << report->plan.placementNote(fc2);
    EXPECT_TRUE(report->plan.placementNote(fc3).starts_with("tune: fp16, alone in INT8"))
        << report->plan.placementNote(fc3);
    EXPECT_TRUE(report->plan.placementNote(fc1).starts_with("tune: int8 pays on fake, INT8 saves 1.000 ms"))
        << report->plan.placementNote(fc1);
    ASSERT_EQ(report->steps.size() > 3, true);
    EXPECT_EQ(report->steps[1].action, TuneStep::Action::AllFp16);
    EXPECT_EQ(report->steps[2].action, TuneStep::Action::Speed);
    EXPECT_TRUE(report->steps[2].kept);
    for (const TuneStep& s : report->steps) EXPECT_TRUE(s.predictedMs.has_value()) << tuneActionName(s.action);
    ASSERT_TRUE(report->latency.has_value());
    EXPECT_EQ(report->latency->startMs, 5.0);
    EXPECT_EQ(report->latency->fp16Ms, 6.0);
    EXPECT_EQ(report->latency->finalMs, 5.0);        // fc1 INT8, fc2 and fc3 FP16
    ASSERT_EQ(report->latency->regions.size(), 2u);  // fc2 moved; fc1 kept
    EXPECT_EQ(report->latency->regions[0].precision, Precision::Fp16);
    EXPECT_EQ(report->latency->regions[1].precision, Precision::Int8);
    EXPECT_EQ(report->keptOut.size(), 2u);
}

// With 3.5 ms for any INT8, moving fc2 out (8.5 -> 7.5 ms) leaves fc1 and fc3, each paying alone (moving one out
// would add 1 ms), yet all-FP16 (6 ms) is faster still: the tune returns it, each former INT8 layer saying why.
TEST(Tune, TheLatencyObjectiveReturnsAllFp16WhenNoPlanWithInt8IsFaster) {
    const auto m = model();
    const Graph& graph = m->graph();
    auto data = samples(graph);
    const NodeId fc1 = *graph.findNode("fc1"), fc2 = *graph.findNode("fc2");
    const FakeLatency latency(graph, fc2, 3.5);
    TuneOptions o = options("output-sqnr>=5");
    o.objective = TuneObjective::Latency;
    o.latency = &latency;
    auto report = tune(graph, defaultPrecisionPlan(graph), calibrated(graph), *data, o);
    ASSERT_TRUE(report.isOk()) << report.status().message();
    EXPECT_TRUE(report->met);
    for (const Node& n : graph.nodes()) EXPECT_NE(report->plan.effective(n.id), Precision::Int8) << n.name;
    EXPECT_EQ(report->latency->finalMs, 6.0);
    EXPECT_EQ(report->steps.back().action, TuneStep::Action::AllFp16);
    EXPECT_TRUE(report->steps.back().kept);
    EXPECT_TRUE(
        report->plan.placementNote(fc1).starts_with("tune: fp16 for speed on fake, all-FP16 predicted 6.000 ms"))
        << report->plan.placementNote(fc1);
    EXPECT_TRUE(report->plan.placementNote(fc2).starts_with("tune: fp16 for speed on fake, INT8 is 1.000 ms slower"))
        << report->plan.placementNote(fc2);
}

TEST(Tune, TheLatencyObjectiveNeedsALatencyModel) {
    const auto m = model();
    const Graph& graph = m->graph();
    auto data = samples(graph);
    TuneOptions o = options("output-sqnr>=5");
    o.objective = TuneObjective::Latency;
    auto report = tune(graph, defaultPrecisionPlan(graph), calibrated(graph), *data, o);
    ASSERT_FALSE(report.isOk());
    EXPECT_NE(report.status().message().find("GPU"), std::string::npos);
}

TEST(TuneEvaluator, APartialRunFromKeptActivationsEqualsAWholeRun) {
    const auto m = model();
    const Graph& graph = m->graph();
    auto data = samples(graph);
    const CalibrationResult c = calibrated(graph);
    auto evaluator = TuneEvaluator::create(graph, c, *data, {.batchSize = 16});
    ASSERT_TRUE(evaluator.isOk()) << evaluator.status().message();
    TuneEvaluator& e = **evaluator;
    const std::vector<NodeId> unit = {*graph.findNode("fc2"), *graph.findNode("relu2")};
    const ValueId r1 = *graph.findValue("r1");
    auto partial = e.isolatedSqnr({{unit, kNoId, 0.0f}, {{}, r1, 0.05f}}, e.batchCount());
    ASSERT_TRUE(partial.isOk()) << partial.status().message();
    PrecisionPlan plan(graph, Precision::Fp32);
    for (NodeId n : unit) plan.setRequested(n, Precision::Int8);
    auto whole = e.outputs(plan, e.batchCount());
    ASSERT_TRUE(whole.isOk());
    EXPECT_NEAR((*partial)[0], outputSqnrDb(e.fp32Outputs(e.batchCount()), *whole), 1e-9);
    EXPECT_LT((*partial)[1], (*partial)[0] + 100.0);  // a coarse amax on r1 costs something
    // fc2's change leaves fc1 and relu1 alone: fewer than the 5 nodes run per batch and change.
    EXPECT_LT(e.isolatedPasses() / static_cast<double>(e.batchCount()), 2.0);
}

TEST(TuneTarget, ParsesTheContractSpellings) {
    auto drop = TuneTarget::parse("accuracy-drop<=0.5");
    ASSERT_TRUE(drop.isOk());
    EXPECT_EQ(drop->kind(), TuneTarget::Kind::AccuracyDrop);
    EXPECT_TRUE(drop->holds(-0.4));  // a drop of 0.4 points
    EXPECT_FALSE(drop->holds(-0.6));
    EXPECT_EQ(drop->text(), "accuracy-drop<=0.5");
    EXPECT_EQ(TuneTarget::parse("top1-agreement>=99")->kind(), TuneTarget::Kind::Top1Agreement);
    EXPECT_EQ(TuneTarget::parse("output-sqnr>=30")->threshold(), 30.0);
    EXPECT_EQ(TuneTarget::parse("metric>=0.8")->kind(), TuneTarget::Kind::Metric);
    EXPECT_EQ(TuneTarget::parse("metric-drop<=1")->kind(), TuneTarget::Kind::MetricDrop);
    for (const char* bad : {"accuracy-drop>=0.5", "accuracy", "output-sqnr>=", "output-sqnr>=x", "metric>=1e999"})
        EXPECT_FALSE(TuneTarget::parse(bad).isOk()) << bad;
}

// A large output that is exact (an RNN's state) must not hide a small one that is not (its probability).
TEST(TuneTarget, OutputSqnrIsTheWorstOutputs) {
    const auto tensor = [](std::vector<float> v) {
        const auto n = static_cast<int64_t>(v.size());
        return Tensor::fromVector(DataType::Float, {n}, std::move(v));
    };
    const NamedTensors reference = {{"state", tensor({100.0f, -100.0f, 100.0f, -100.0f})},
                                    {"prob", tensor({0.5f, 0.25f, 0.75f, 0.5f})},
                                    {"ids", Tensor::fromVector(DataType::Int64, {1}, std::vector<int64_t>{3})}};
    NamedTensors quantized = reference;
    quantized[1].second = tensor({0.55f, 0.25f, 0.75f, 0.5f});
    quantized[2].second = Tensor::fromVector(DataType::Int64, {1}, std::vector<int64_t>{4});  // not float: not scored
    ErrorAccumulator prob;
    prob.add(reference[1].second, quantized[1].second);
    EXPECT_NEAR(outputSqnrDb(reference, quantized), prob.metrics().sqnrDb, 1e-9);
    EXPECT_LT(outputSqnrDb(reference, quantized), 40.0);  // pooled with the state it would read 72 dB
    EXPECT_EQ(outputSqnrDb(reference, reference), kOutputSqnrCapDb);
}

}  // namespace
}  // namespace ql
