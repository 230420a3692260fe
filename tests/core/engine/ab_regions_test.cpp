// The regions `quantize --ab-scripts` builds both ways: a small INT8 island between FP16 layers, whose reformats cost
// more than it saves, is contested; the large INT8 convolutions are not; an all-FP16 plan has none.
#include <gtest/gtest.h>

#include "core/engine/ab_regions.h"
#include "core/export/effective_plan.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::ModelBuilder;
using test::seededFloats;

const TrtTarget kTrt10{TrtVersion::Trt10, TrtTyping::Strong};

void conv(ModelBuilder& b, const std::string& name, const std::string& in, const std::string& out, int64_t cin,
          int64_t cout, int64_t kernel) {
    b.initializer(name + ".w", {cout, cin, kernel, kernel},
                  seededFloats(static_cast<size_t>(cout * cin * kernel * kernel)));
    const int64_t pad = kernel / 2;
    b.node("Conv", {in, name + ".w"}, {out}, name).ints("pads", {pad, pad, pad, pad});
}

// Two large 3x3 convolutions, then 1x1 convolutions of few channels on a small map (launch-bound).
std::unique_ptr<Model> model() {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 64, 56, 56});
    conv(b, "big1", "x", "c1", 64, 128, 3);
    b.node("Relu", {"c1"}, {"r1"}, "relu1");
    conv(b, "big2", "r1", "c2", 128, 128, 3);
    b.node("Relu", {"c2"}, {"r2"}, "relu2");
    b.node("MaxPool", {"r2"}, {"p"}, "pool").ints("kernel_shape", {8, 8}).ints("strides", {8, 8});
    conv(b, "head1", "p", "h1", 128, 16, 1);
    b.node("Relu", {"h1"}, {"hr"}, "head_relu");
    conv(b, "head2", "hr", "y", 16, 16, 1);
    b.output("y");
    return b.load();
}

PlanRealizer realizer(const Graph& graph) {
    return [&graph](PrecisionPlan requested) {
        return effectivePlan(graph, std::move(requested), kTrt10.version, Precision::Fp16, nullptr, kTrt10.typing);
    };
}

bool holds(const Graph& graph, const AbRegion& region, const std::string& node) {
    return std::find(region.nodes.begin(), region.nodes.end(), *graph.findNode(node)) != region.nodes.end();
}

// FP16 everywhere but the two large convolutions and head1, a 1x1 convolution on a 7x7 map between FP16 layers.
PrecisionPlan islandsPlan(const Graph& graph) {
    PrecisionPlan plan(graph, Precision::Fp16);
    for (const char* node : {"big1", "relu1", "big2", "relu2", "head1", "head_relu"})
        plan.setRequested(*graph.findNode(node), Precision::Int8);
    return plan;
}

TEST(AbRegionsTest, ASmallInt8IslandIsContestedTheLargeConvolutionsAreNot) {
    const auto m = model();
    const Graph& graph = m->graph();
    const PlanRealizer realize = realizer(graph);
    const PrecisionPlan plan = realize(islandsPlan(graph));
    ASSERT_EQ(plan.effective(*graph.findNode("big1")), Precision::Int8);
    ASSERT_EQ(plan.effective(*graph.findNode("head1")), Precision::Int8);
    ASSERT_EQ(plan.effective(*graph.findNode("head2")), Precision::Fp16);
    const GpuProfile gpu = defaultGpuProfile(*findGpu("rtx3060-laptop"));
    const ContestedRegions contested = contestedRegions(graph, plan, kTrt10, gpu, realize, 8);
    EXPECT_GT(contested.planMs, 0.0);
    EXPECT_GT(contested.fp16Ms, contested.planMs);  // INT8 pays on the whole
    EXPECT_GE(contested.candidates, 2);             // the two islands at least
    ASSERT_EQ(contested.regions.size(), 1u);
    const AbRegion& region = contested.regions.front();
    EXPECT_TRUE(holds(graph, region, "head1"));
    EXPECT_FALSE(holds(graph, region, "big1") || holds(graph, region, "big2")) << region.name;
    EXPECT_LT(region.int8GainMs, 0.0) << region.reason;  // its two reformats cost more than INT8 saves
    EXPECT_NE(region.reason.find("FP16 predicted faster"), std::string::npos) << region.reason;
    // At most `limit`, the rest counted.
    const ContestedRegions none = contestedRegions(graph, plan, kTrt10, gpu, realize, 0);
    EXPECT_TRUE(none.regions.empty());
    EXPECT_EQ(none.leftOut, 1);
}

TEST(AbRegionsTest, AnAllFp16PlanHasNothingToContest) {
    const auto m = model();
    const Graph& graph = m->graph();
    const PlanRealizer realize = realizer(graph);
    const ContestedRegions contested = contestedRegions(graph, realize(PrecisionPlan(graph, Precision::Fp16)), kTrt10,
                                                        defaultGpuProfile(*findGpu("t4")), realize, 8);
    EXPECT_TRUE(contested.regions.empty());
    EXPECT_EQ(contested.candidates, 0);
}

}  // namespace
}  // namespace ql
