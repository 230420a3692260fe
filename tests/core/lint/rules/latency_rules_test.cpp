// The latency rules on hand-built graphs, timed by the engine prediction on a T4 (lint_latency.h):
// trt-int8-island-slower (an INT8 island whose reformats cost more than it saves), trt-fp16-island-reformats (an FP16
// island between INT8 layers that INT8 would make faster) and trt-int8-no-gain (INT8 layers no faster than FP16).
// Each fires where it must, stays silent where not, and all three stay silent without a GPU.
#include <gtest/gtest.h>

#include "core/engine/latency_model.h"
#include "core/export/effective_plan.h"
#include "core/lint/linter.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::ModelBuilder;
using test::seededFloats;

constexpr const char* kIslandSlower = "trt-int8-island-slower";
constexpr const char* kFp16Island = "trt-fp16-island-reformats";
constexpr const char* kNoGain = "trt-int8-no-gain";

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

void conv(ModelBuilder& b, const std::string& name, const std::string& in, const std::string& out, int64_t cin,
          int64_t cout, int64_t kernel, int64_t group = 1) {
    b.initializer(name + ".w", {cout, cin / group, kernel, kernel},
                  seededFloats(static_cast<size_t>(cout * cin / group * kernel * kernel)));
    b.initializer(name + ".b", {cout}, seededFloats(static_cast<size_t>(cout)));
    const int64_t pad = kernel / 2;
    auto& node = b.node("Conv", {in, name + ".w", name + ".b"}, {out}, name).ints("pads", {pad, pad, pad, pad});
    if (group > 1) node.i("group", group);
}

// x -> before -> relu -> island -> relu -> after -> y, `channels` wide at 56x56, the island's kernel `kernel`.
std::unique_ptr<Model> threeConvs(int64_t channels, int64_t kernel) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, channels, 56, 56});
    conv(b, "before", "x", "a", channels, channels, 3);
    b.node("Relu", {"a"}, {"ra"}, "relu_before");
    conv(b, "island", "ra", "i", channels, channels, kernel);
    b.node("Relu", {"i"}, {"ri"}, "relu_island");
    conv(b, "after", "ri", "y", channels, channels, 3);
    b.output("y");
    return b.load();
}

// `int8` nodes requested INT8, the rest FP16, realized as the export writes it (strongly typed TensorRT 10).
PrecisionPlan planWith(const Graph& graph, const std::vector<std::string>& int8) {
    PrecisionPlan plan(graph, Precision::Fp16);
    for (const std::string& name : int8) plan.setRequested(*graph.findNode(name), Precision::Int8);
    return effectivePlan(graph, std::move(plan), TrtVersion::Trt10, Precision::Fp16, nullptr, TrtTyping::Strong);
}

std::vector<Finding> findingsOf(const Graph& graph, const PrecisionPlan& plan, const std::string& rule,
                                const char* gpu = "t4") {
    const std::optional<GpuProfile> profile =
        gpu == nullptr ? std::nullopt : std::optional<GpuProfile>(defaultGpuProfile(*findGpu(gpu)));
    LintOptions options;
    options.version = TrtVersion::Trt10;
    options.typing = TrtTyping::Strong;
    options.gpu = profile ? &*profile : nullptr;
    std::vector<Finding> out;
    for (const Finding& f : lint(graph, plan, options).findings)
        if (f.ruleId == rule) out.push_back(f);
    return out;
}

// A 1x1 convolution of 16 channels alone in INT8 between FP16 layers: INT8 pads it to 32 and saves next to nothing,
// and its two reformats cost more.
TEST(LatencyRulesTest, AnInt8IslandThatCostsMoreThanItSavesIsReportedWithItsNumbersAndTheFp16Edit) {
    const auto model = threeConvs(16, 1);
    const Graph& graph = model->graph();
    const PrecisionPlan plan = planWith(graph, {"island", "relu_island"});
    const auto f = findingsOf(graph, plan, kIslandSlower);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].nodeName, "island");
    EXPECT_TRUE(contains(f[0].message, "INT8 island of 1 layer (island): ")) << f[0].message;
    EXPECT_TRUE(contains(f[0].message, "its 2 reformats cost")) << f[0].message;
    EXPECT_TRUE(contains(f[0].message, "slower than fp16 on t4 (predicted, an estimate: ")) << f[0].message;
    EXPECT_TRUE(contains(f[0].message, "% of the plan's ")) << f[0].message;
    EXPECT_TRUE(contains(f[0].fix, R"({"nodes":{"island":"fp16","relu_island":"fp16"}})")) << f[0].fix;
    EXPECT_FALSE(f[0].causesFallback);
    // Its layer is left to this rule, not repeated as a layer without gain.
    EXPECT_TRUE(findingsOf(graph, plan, kNoGain).empty());
}

// `islands` times an FP16 3x3 convolution then an INT8 1x1 one (an island that does not pay), 16 channels at 56x56,
// then three wide FP16 convolutions that carry most of the time: each island costs well under 1% of it.
struct ManyIslands {
    std::unique_ptr<Model> model;
    PrecisionPlan plan;
};

ManyIslands manyIslands(int islands) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 16, 56, 56});
    std::string tensor = "x";
    std::vector<std::string> int8;
    for (int i = 0; i < islands; ++i) {
        const std::string n = std::to_string(i);
        conv(b, "f" + n, tensor, "f" + n + "_out", 16, 16, 3);
        conv(b, "i" + n, "f" + n + "_out", "i" + n + "_out", 16, 16, 1);
        tensor = "i" + n + "_out";
        int8.push_back("i" + n);
    }
    conv(b, "wide_in", tensor, "w", 16, 512, 3);
    conv(b, "wide", "w", "w2", 512, 512, 3);
    conv(b, "wide2", "w2", "y", 512, 512, 3);
    b.output("y");
    ManyIslands out{b.load(), {}};
    out.plan = planWith(out.model->graph(), int8);
    return out;
}

TEST(LatencyRulesTest, ManySmallIslandsAreOneFindingAFewAreOneEach) {
    const ManyIslands three = manyIslands(3);
    const auto f3 = findingsOf(three.model->graph(), three.plan, kIslandSlower);
    ASSERT_EQ(f3.size(), 3u);
    for (const Finding& f : f3) EXPECT_EQ(f.severity, Severity::Info) << f.message;
    const ManyIslands five = manyIslands(5);
    const auto f5 = findingsOf(five.model->graph(), five.plan, kIslandSlower);
    ASSERT_EQ(f5.size(), 1u);
    EXPECT_TRUE(contains(f5[0].message,
                         "5 INT8 islands make the plan slower than FP16 would, each by less than 1% "
                         "of its time; together by "))
        << f5[0].message;
    EXPECT_TRUE(contains(f5[0].message, "The costliest: INT8 island of 1 layer (i")) << f5[0].message;
    EXPECT_TRUE(contains(f5[0].message, "; and 2 more")) << f5[0].message;
    EXPECT_TRUE(contains(f5[0].fix, R"("i0":"fp16")")) << f5[0].fix;
    EXPECT_TRUE(contains(f5[0].fix, R"("i4":"fp16")")) << f5[0].fix;
}

TEST(LatencyRulesTest, AnInt8IslandThatPaysAndAnyPlanWithoutAGpuAreSilent) {
    const auto big = threeConvs(256, 3);
    const PrecisionPlan pays = planWith(big->graph(), {"island", "relu_island"});
    EXPECT_TRUE(findingsOf(big->graph(), pays, kIslandSlower).empty());
    const auto small = threeConvs(16, 1);
    const PrecisionPlan slower = planWith(small->graph(), {"island", "relu_island"});
    for (const char* rule : {kIslandSlower, kFp16Island, kNoGain})
        EXPECT_TRUE(findingsOf(small->graph(), slower, rule, nullptr).empty()) << rule;
}

// conv1 (INT8) -> middle (FP16) -> conv2 (INT8), 64 channels at 56x56. A 3x3 convolution in the middle reads
// FP16 HWC8 where conv1 writes INT8 CHW32 and writes what conv2 must convert back: a reformat on each side, which INT8
// spares, and its INT8 kernel is faster too. A HardSwish in the middle takes conv1's output as it is written (the DQ
// fuses into conv1, the Q into the HardSwish): no reformat to spare.
std::unique_ptr<Model> int8Sandwich(const std::string& middle, bool middleLast = false) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 64, 56, 56});
    conv(b, "conv1", "x", "c1", 64, 64, 3);
    const auto addMiddle = [&](const std::string& in, const std::string& out) {
        if (middle == "Conv")
            conv(b, "mid", in, out, 64, 64, 3);
        else
            b.node(middle, {in}, {out}, "mid");
    };
    if (middleLast) {
        conv(b, "conv2", "c1", "c2", 64, 64, 3);
        addMiddle("c2", "y");
    } else {
        addMiddle("c1", "m");
        conv(b, "conv2", "m", "y", 64, 64, 3);
    }
    b.output("y");
    return b.load();
}

TEST(LatencyRulesTest, AnFp16IslandBetweenInt8LayersIsReportedWithTheInt8Edit) {
    const auto model = int8Sandwich("Conv");
    const Graph& graph = model->graph();
    const PrecisionPlan plan = planWith(graph, {"conv1", "conv2"});
    ASSERT_EQ(plan.effective(*graph.findNode("mid")), Precision::Fp16);
    const auto f = findingsOf(graph, plan, kFp16Island);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].nodeName, "mid");
    EXPECT_EQ(f[0].severity, Severity::Warning);  // two reformats and a 3x3 convolution: far more than 1%
    EXPECT_TRUE(contains(f[0].message, "FP16 island of 1 layer (mid) between INT8 layers (conv1 and conv2); in INT8: "))
        << f[0].message;
    EXPECT_TRUE(contains(f[0].message, "it spares 2 reformats")) << f[0].message;
    EXPECT_TRUE(contains(f[0].message, "faster than fp16 on t4 (predicted, an estimate")) << f[0].message;
    EXPECT_TRUE(contains(f[0].fix, R"({"nodes":{"mid":"int8"}})")) << f[0].fix;
}

TEST(LatencyRulesTest, AnFp16LayerWithoutReformatsOrNotBetweenInt8LayersIsSilent) {
    for (const auto& model : {int8Sandwich("HardSwish"), int8Sandwich("Conv", true)}) {
        const PrecisionPlan plan = planWith(model->graph(), {"conv1", "conv2"});
        EXPECT_TRUE(findingsOf(model->graph(), plan, kFp16Island).empty());
    }
}

// Two wide 3x3 convolutions around a narrow middle (64 -> 8 by 1x1, 8 -> 8 by 3x3, 8 -> 64 by 1x1) at 112x112, all
// INT8: the island pays as a whole, but INT8 pads the 8 channels of the 3x3 convolution to 32 where FP16 pads them
// to 8: 16 times the MACs at twice the rate. The 1x1 ones are memory-bound, and INT8 halves their bytes: they gain.
std::unique_ptr<Model> narrowMiddle() {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 64, 112, 112});
    conv(b, "wide1", "x", "a", 64, 64, 3);
    b.node("Relu", {"a"}, {"ra"}, "relu1");
    b.initializer("down.w", {8, 64, 1, 1}, seededFloats(8 * 64));
    b.node("Conv", {"ra", "down.w"}, {"d"}, "down");
    conv(b, "narrow", "d", "n", 8, 8, 3);
    b.initializer("up.w", {64, 8, 1, 1}, seededFloats(8 * 64));
    b.node("Conv", {"n", "up.w"}, {"u"}, "up");
    b.node("Relu", {"u"}, {"ru"}, "relu2");
    conv(b, "wide2", "ru", "y", 64, 64, 3);
    b.output("y");
    return b.load();
}

TEST(LatencyRulesTest, Int8LayersWithoutGainAreOneFindingWithTheirTimes) {
    const auto model = narrowMiddle();
    const Graph& graph = model->graph();
    const PrecisionPlan plan = planWith(graph, {"wide1", "relu1", "down", "narrow", "up", "relu2", "wide2"});
    EXPECT_TRUE(findingsOf(graph, plan, kIslandSlower).empty());
    const auto f = findingsOf(graph, plan, kNoGain);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].nodeName, "narrow");
    EXPECT_EQ(f[0].severity, Severity::Warning);  // about 3% of the plan
    EXPECT_TRUE(contains(f[0].message, "1 INT8 layer runs no faster than in FP16: narrow (channels padded to 32: "))
        << f[0].message;
    EXPECT_TRUE(contains(f[0].message, " in INT8 against ")) << f[0].message;
    EXPECT_TRUE(contains(f[0].message, "on t4 (predicted, an estimate")) << f[0].message;
    for (const char* gains : {"wide1", "down", "up"}) EXPECT_FALSE(contains(f[0].message, gains)) << f[0].message;
    EXPECT_TRUE(contains(f[0].fix, R"({"nodes":{"narrow":"fp16"}})")) << f[0].fix;
}

TEST(LatencyRulesTest, Int8LayersThatGainAreSilent) {
    const auto model = threeConvs(256, 3);
    const PrecisionPlan plan = planWith(model->graph(), {"before", "relu_before", "island", "relu_island", "after"});
    EXPECT_TRUE(findingsOf(model->graph(), plan, kNoGain).empty());
    EXPECT_TRUE(findingsOf(model->graph(), plan, kIslandSlower).empty());
}

}  // namespace
}  // namespace ql
