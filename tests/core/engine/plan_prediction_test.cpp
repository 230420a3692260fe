// What the window shows of a plan's predicted engine (plan_prediction.h) on the two-island conv chain: per node the
// layer's time and INT8 gain (a fused Relu shares its conv's layer), the gain of a small INT8 island negative and of
// a heavy one positive, both the difference of whole-plan totals; the all-FP16 and all-INT8 references.
#include "core/engine/plan_prediction.h"

#include <gtest/gtest.h>

#include "core/export/effective_plan.h"
#include "tests/support/latency_island_model.h"

namespace ql {
namespace {

const TrtTarget kTrt10{TrtVersion::Trt10, TrtTyping::Strong};

struct Predicted {
    std::unique_ptr<Model> model = test::latencyIslandModel();
    GpuProfile t4 = defaultGpuProfile(*findGpu("t4"));
    ApplyPolicies apply = [this](PrecisionPlan plan) {
        return effectivePlan(model->graph(), std::move(plan), kTrt10.version, Precision::Fp16, nullptr, kTrt10.typing);
    };
    PrecisionPlan plan = apply(test::islandsPlan(model->graph()));

    std::optional<PlanPrediction> run(std::function<bool()> stop = {}) {
        return predictPlan({model->graph(), plan, kTrt10, t4, apply, std::move(stop)});
    }
    NodeId node(const char* name) const { return *model->graph().findNode(name); }
};

TEST(PlanPrediction, EachNodeGetsItsLayersTimeAndAFusedReluSharesIt) {
    Predicted p;
    const auto prediction = p.run();
    ASSERT_TRUE(prediction);
    const PredictedLayer* small = prediction->layerOf(p.node("small"));
    ASSERT_NE(small, nullptr);
    EXPECT_EQ(small->precision, EnginePrecision::Int8);
    EXPECT_EQ(prediction->layerOf(p.node("small_relu")), small);
    EXPECT_TRUE(prediction->isLayerLead(p.node("small")));
    EXPECT_FALSE(prediction->isLayerLead(p.node("small_relu")));
    EXPECT_GT(*prediction->layerMs(p.node("small")), 0.0);
    EXPECT_EQ(prediction->layerOf(p.node("before"))->precision, EnginePrecision::Fp16);
    EXPECT_DOUBLE_EQ(prediction->estimate.totalMs, estimateLatency(prediction->engine, p.t4).totalMs);
}

TEST(PlanPrediction, ASmallInt8IslandCostsAHeavyOnePays) {
    Predicted p;
    const auto prediction = p.run();
    ASSERT_TRUE(prediction);
    const double small = *prediction->int8Gain(p.node("small"));
    const double big = *prediction->int8Gain(p.node("big"));
    EXPECT_LT(small, 0.0);
    EXPECT_GT(big, 0.0);
    // The gain is the plan's total with the layer in FP16 minus the plan's: reformats included.
    PrecisionPlan fp16Small = p.plan;
    for (const char* name : {"small", "small_relu"}) fp16Small.setRequested(p.node(name), Precision::Fp16);
    const double withoutSmall =
        estimateLatency(predictEngine(p.model->graph(), p.apply(fp16Small), kTrt10), p.t4).totalMs;
    EXPECT_NEAR(small, withoutSmall - prediction->estimate.totalMs, 1e-12);
    // Each is its own island, whose verdict is the same move.
    ASSERT_NE(prediction->regionOf(p.node("small")), nullptr);
    EXPECT_FALSE(prediction->regionOf(p.node("small"))->pays());
    EXPECT_TRUE(prediction->regionOf(p.node("big"))->pays());
    EXPECT_EQ(prediction->regionOf(p.node("before")), nullptr);
    // An FP16 conv gets what INT8 would save there: the heavy one after the island would gain too.
    EXPECT_TRUE(prediction->int8Gain(p.node("after")).has_value());
}

TEST(PlanPrediction, TheReferencesAreAllFp16AndAllInt8) {
    Predicted p;
    const auto prediction = p.run();
    ASSERT_TRUE(prediction);
    const Graph& graph = p.model->graph();
    EXPECT_DOUBLE_EQ(prediction->fp16TotalMs,
                     estimateLatency(predictEngine(graph, allFp16Plan(graph), kTrt10), p.t4).totalMs);
    EXPECT_DOUBLE_EQ(prediction->int8TotalMs,
                     estimateLatency(predictEngine(graph, p.apply(allInt8Plan(graph)), kTrt10), p.t4).totalMs);
    EXPECT_NE(prediction->fp16TotalMs, prediction->int8TotalMs);
}

TEST(PlanPrediction, AStopRequestEndsItWithoutAResult) {
    Predicted p;
    EXPECT_FALSE(p.run([] { return true; }).has_value());
}

}  // namespace
}  // namespace ql
