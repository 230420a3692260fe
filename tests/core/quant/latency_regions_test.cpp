// The speed search of `tune --objective latency` (latency_regions.h) on hand-built graphs, timed by the engine
// prediction (core/engine/plan_latency.h) on a T4: an INT8 island between FP16 layers whose reformats cost more
// than its INT8 saves moves to FP16; one whose INT8 saves more stays, each with its reason and numbers.
#include "core/quant/latency_regions.h"

#include <gtest/gtest.h>

#include "core/engine/plan_latency.h"
#include "core/quant/tuning.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::ModelBuilder;
using test::seededFloats;

const TrtTarget kTrt10{TrtVersion::Trt10, TrtTyping::Strong};

PredictedPlanLatency onT4(const Graph& graph) {
    return PredictedPlanLatency(graph, kTrt10, defaultGpuProfile(*findGpu("t4")));
}

void conv(ModelBuilder& b, const std::string& name, const std::string& in, const std::string& out, int64_t cin,
          int64_t cout, int64_t kernel) {
    b.initializer(name + ".w", {cout, cin, kernel, kernel},
                  seededFloats(static_cast<size_t>(cout * cin * kernel * kernel)));
    b.initializer(name + ".b", {cout}, seededFloats(static_cast<size_t>(cout)));
    const int64_t pad = kernel / 2;
    b.node("Conv", {in, name + ".w", name + ".b"}, {out}, name).ints("pads", {pad, pad, pad, pad});
}

// x -> before -> island -> after -> y, `channels` wide at `size` x `size`, the island's kernel `kernel` x `kernel`.
std::unique_ptr<Model> threeConvs(int64_t channels, int64_t size, int64_t kernel) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, channels, size, size});
    conv(b, "before", "x", "a", channels, channels, 3);
    b.node("Relu", {"a"}, {"ra"}, "relu_before");
    conv(b, "island", "ra", "i", channels, channels, kernel);
    b.node("Relu", {"i"}, {"ri"}, "relu_island");
    conv(b, "after", "ri", "y", channels, channels, 3);
    b.output("y");
    return b.load();
}

// FP16 everywhere but the island (its conv and Relu) INT8.
PrecisionPlan islandInt8(const Graph& graph) {
    PrecisionPlan plan(graph, Precision::Fp16);
    plan.setRequested(*graph.findNode("island"), Precision::Int8);
    plan.setRequested(*graph.findNode("relu_island"), Precision::Int8);
    return plan;
}

TEST(LatencyRegions, TheIslandIsTheInt8LayerBetweenFp16Layers) {
    const auto model = threeConvs(16, 56, 1);
    const Graph& graph = model->graph();
    const auto islands = onT4(graph).int8Islands(islandInt8(graph));
    ASSERT_EQ(islands.size(), 1u);
    ASSERT_EQ(islands[0].size(), 1u);  // one layer: the conv with its Relu fused
    EXPECT_EQ(islands[0][0].size(), 2u);
    EXPECT_EQ(graph.node(islands[0][0][0]).name, "island");
}

// A 1x1 convolution of 16 channels: INT8 pads them to 32 and saves next to nothing, and its two reformats (FP16
// HWC8 -> INT8 CHW32 and back) cost more.
TEST(LatencyRegions, AnInt8IslandThatDoesNotPayMovesToFp16WithItsReason) {
    const auto model = threeConvs(16, 56, 1);
    const Graph& graph = model->graph();
    const PredictedPlanLatency latency = onT4(graph);
    const PrecisionPlan start = islandInt8(graph);
    const SpeedMoves moves = moveRegionsThatDoNotPay(start, latency, Precision::Fp16, {});
    ASSERT_EQ(moves.moved.size(), 1u);
    const RegionDecision& d = moves.moved[0];
    EXPECT_EQ(d.precision, Precision::Fp16);
    EXPECT_FALSE(d.pays());
    EXPECT_EQ(d.reformats, 2);
    EXPECT_GT(d.reformatCostMs, d.int8SavesMs);
    EXPECT_NE(d.why.find("its 2 reformats cost"), std::string::npos) << d.why;
    EXPECT_NE(d.why.find("slower than fp16"), std::string::npos) << d.why;
    const NodeId island = *graph.findNode("island");
    EXPECT_EQ(moves.plan.requested(island), Precision::Fp16);
    EXPECT_EQ(moves.plan.requested(*graph.findNode("relu_island")), Precision::Fp16);
    EXPECT_TRUE(moves.plan.placementNote(island).starts_with("tune: fp16 for speed on t4, INT8 "))
        << moves.plan.placementNote(island);
    // The plan got faster by what the decision said, and no reformat is left.
    const PlanTime before = latency.time(start), after = latency.time(moves.plan);
    EXPECT_NEAR(before.totalMs - after.totalMs, -d.netMs(), 1e-9);
    EXPECT_EQ(after.reformats, before.reformats - 2);
    EXPECT_TRUE(latency.int8Islands(moves.plan).empty());
}

// A 3x3 convolution of 256 channels: INT8 saves more than the two reformats cost.
TEST(LatencyRegions, AnInt8IslandThatPaysStaysInt8AndSaysByHowMuch) {
    const auto model = threeConvs(256, 56, 3);
    const Graph& graph = model->graph();
    const PredictedPlanLatency latency = onT4(graph);
    PrecisionPlan plan = islandInt8(graph);
    const SpeedMoves moves = moveRegionsThatDoNotPay(plan, latency, Precision::Fp16, {});
    EXPECT_TRUE(moves.moved.empty());
    EXPECT_EQ(moves.plan.requested(*graph.findNode("island")), Precision::Int8);
    const std::vector<RegionDecision> kept = assessInt8Regions(moves.plan, latency, Precision::Fp16, {});
    ASSERT_EQ(kept.size(), 1u);
    const RegionDecision& d = kept[0];
    EXPECT_EQ(d.precision, Precision::Int8);
    EXPECT_TRUE(d.pays());
    EXPECT_EQ(d.reformats, 2);
    EXPECT_GT(d.int8SavesMs, d.reformatCostMs);
    EXPECT_NE(d.why.find("faster than fp16"), std::string::npos) << d.why;
    noteKeptRegions(plan, kept, latency.gpu());
    EXPECT_TRUE(plan.placementNote(*graph.findNode("island")).starts_with("tune: int8 pays on t4, INT8 saves "))
        << plan.placementNote(*graph.findNode("island"));
}

// All INT8 the three convolutions hand INT8 to each other: one island of three layers. The search ends no slower
// than all-INT8 or all-FP16; every layer it left in FP16 would make the plan slower back in INT8, and every island
// left INT8 pays.
TEST(LatencyRegions, TheSearchEndsWhereNoRegionOrLayerPaysToMove) {
    for (const int64_t channels : {16, 256}) {
        const auto model = threeConvs(channels, 56, channels == 16 ? 1 : 3);
        const Graph& graph = model->graph();
        const PredictedPlanLatency latency = onT4(graph);
        const PrecisionPlan all(graph, Precision::Int8);
        const auto islands = latency.int8Islands(all);
        ASSERT_EQ(islands.size(), 1u);
        EXPECT_EQ(islands[0].size(), 3u);
        const SpeedMoves moves = moveRegionsThatDoNotPay(all, latency, Precision::Fp16, {});
        const double ms = latency.time(moves.plan).totalMs;
        EXPECT_LE(ms, latency.time(all).totalMs);
        EXPECT_LE(ms, latency.time(PrecisionPlan(graph, Precision::Fp16)).totalMs);
        for (const RegionDecision& d : moves.moved) {
            EXPECT_FALSE(d.pays()) << d.why;
            EXPECT_EQ(moves.plan.requested(d.nodes.front()), Precision::Fp16);
        }
        for (const RegionDecision& d : assessInt8Regions(moves.plan, latency, Precision::Fp16, {}))
            EXPECT_TRUE(d.pays()) << d.why;
    }
}

TEST(LatencyRegions, MillisecondsKeepTheirSmallDigits) {
    EXPECT_EQ(millisecondsText(0.012), "0.012 ms");
    EXPECT_EQ(millisecondsText(0.0042), "0.0042 ms");
    EXPECT_EQ(millisecondsText(1.5), "1.500 ms");
}

}  // namespace
}  // namespace ql
