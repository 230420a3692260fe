// trt-grouped-conv-int8-alignment: channels per group must be multiples of 4 for INT8.
#include <gtest/gtest.h>

#include "core/lint/lint_policy.h"
#include "core/quant/default_placement.h"
#include "tests/core/lint/lint_test_util.h"

namespace ql {
namespace {

using test::ModelBuilder;

constexpr const char* kRule = "trt-grouped-conv-int8-alignment";

// A plain FP32 grouped conv: inChannels -> outChannels with `groups` groups.
ModelBuilder groupedConv(int64_t inChannels, int64_t outChannels, int64_t groups) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, inChannels, 8, 8});
    const int64_t count = outChannels * (inChannels / groups) * 9;
    b.initializer("w", {outChannels, inChannels / groups, 3, 3}, test::seededFloats(static_cast<size_t>(count)));
    b.node("Conv", {"x", "w"}, {"y"}, "dw").i("group", groups).ints("pads", {1, 1, 1, 1});
    b.output("y");
    return b;
}

// The same depthwise conv quantized the way pytorch-quantization exports it (Q/DQ on input and weight).
ModelBuilder qdqDepthwise(int64_t channels) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, channels, 8, 8});
    b.initializer("w", {channels, 1, 3, 3}, test::seededFloats(static_cast<size_t>(channels * 9)));
    const std::string x = test::addQdq(b, "x");
    const std::string w = test::addQdq(b, "w", test::perChannel(static_cast<size_t>(channels), 0.01f, 0));
    b.node("Conv", {x, w}, {"y"}, "dw").i("group", channels).ints("pads", {1, 1, 1, 1});
    b.output("y");
    return b;
}

TEST(GroupedConvAlignmentRuleTest, DepthwiseWithSixChannelsFallsBackOnTrt10) {
    const auto model = groupedConv(6, 6, 6).load();
    const auto report = test::lintModel(*model);
    const auto f = test::findingsOf(report, kRule);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Warning);
    EXPECT_EQ(f[0].nodeName, "dw");
    EXPECT_TRUE(f[0].causesFallback);
    EXPECT_NE(f[0].message.find("6 input"), std::string::npos) << f[0].message;
    EXPECT_EQ(report.coverage.int8Layers, 0);
    ASSERT_EQ(report.coverage.fallbacks.size(), 1u);
    EXPECT_EQ(report.coverage.fallbacks[0].ruleId, kRule);
}

TEST(GroupedConvAlignmentRuleTest, DepthwiseWithEightChannelsIsFine) {
    EXPECT_TRUE(test::findingsOf(*groupedConv(8, 8, 8).load(), kRule).empty());
    EXPECT_TRUE(test::findingsOf(*qdqDepthwise(8).load(), kRule, TrtVersion::Trt86).empty());
}

TEST(GroupedConvAlignmentRuleTest, QdqDepthwiseWithSixChannelsFailsTheBuildOnTrt86) {
    const auto model = qdqDepthwise(6).load();
    const auto f86 = test::findingsOf(*model, kRule, TrtVersion::Trt86);
    ASSERT_EQ(f86.size(), 1u);
    EXPECT_EQ(f86[0].severity, Severity::Error);
    const auto f10 = test::findingsOf(*model, kRule, TrtVersion::Trt10);
    ASSERT_EQ(f10.size(), 1u);
    EXPECT_EQ(f10[0].severity, Severity::Warning);
}

TEST(GroupedConvAlignmentRuleTest, GroupedConvNeedsMultiplesOfFourPerGroup) {
    const auto bad = test::findingsOf(*groupedConv(12, 12, 2).load(), kRule);  // 6 per group
    ASSERT_EQ(bad.size(), 1u);
    EXPECT_NE(bad[0].message.find("6 input and 6 output channels per group"), std::string::npos) << bad[0].message;
    EXPECT_TRUE(test::findingsOf(*groupedConv(16, 16, 2).load(), kRule).empty());  // 8 per group
}

TEST(GroupedConvAlignmentRuleTest, LayersNotPlannedInt8AreNotChecked) {
    // A Q/DQ model whose grouped conv carries no Q/DQ stays in float: nothing to warn about.
    ModelBuilder b = groupedConv(6, 6, 6);
    b.input("z", DataType::Float, {1, 4});
    test::addQdq(b, "z");
    b.output("z_dq");
    EXPECT_TRUE(test::findingsOf(*b.load(), kRule).empty());
}

// On TensorRT 11 the layer falls back to FP32, not FP16: 11.2 has no strongly typed FP16 kernel for a grouped
// convolution, and BlazeFace's 42-channel depthwise convolution, fallen back to FP16, made QuantLens's own TensorRT
// 11 export fail trt-strong-fp16-grouped-conv. The fix says so too.
TEST(GroupedConvAlignmentRuleTest, OnTrt11ItFallsBackToFp32WhichBuilds) {
    const auto model = groupedConv(6, 6, 6).load();
    const Graph& graph = model->graph();
    const NodeId dw = *graph.findNode("dw");
    PrecisionPlan plan = defaultPrecisionPlan(graph);
    TrtPolicies(TrtVersion::Trt11, Precision::Fp16, nullptr).apply(graph, plan);
    EXPECT_EQ(plan.effective(dw), Precision::Fp32);
    EXPECT_NE(plan.reason(dw).find("FP32, not FP16"), std::string::npos) << plan.reason(dw);
    EXPECT_TRUE(test::findingsOf(*model, "trt-strong-fp16-grouped-conv", TrtVersion::Trt11).empty());
    const auto f11 = test::findingsOf(*model, kRule, TrtVersion::Trt11);
    ASSERT_EQ(f11.size(), 1u);
    EXPECT_NE(f11[0].fix.find("set this layer to FP32"), std::string::npos) << f11[0].fix;
    // TensorRT 10 builds the FP16 grouped convolution: the fallback stays FP16 there.
    PrecisionPlan plan10 = defaultPrecisionPlan(graph);
    TrtPolicies(TrtVersion::Trt10, Precision::Fp16, nullptr).apply(graph, plan10);
    EXPECT_EQ(plan10.effective(dw), Precision::Fp16);
}

// Any fallback of a grouped convolution, not only this rule's: one whose input has no range (an If branch the
// calibration never took) is FP32 on 11, where the FP16 it would fall back to does not build. Before, Silero VAD's
// untaken branch, planned INT8, exported FP16 grouped convolutions that failed QuantLens's own lint on 11.
TEST(GroupedConvAlignmentRuleTest, AGroupedConvWithoutARangeFallsBackToFp32OnTrt11) {
    const auto model = groupedConv(8, 8, 2).load();
    const Graph& graph = model->graph();
    const NodeId conv = *graph.findNode("dw");
    const CalibrationResult noRanges;
    PrecisionPlan plan11 = defaultPrecisionPlan(graph);
    ASSERT_EQ(plan11.requested(conv), Precision::Int8);
    TrtPolicies(TrtVersion::Trt11, Precision::Fp16, &noRanges).apply(graph, plan11);
    EXPECT_EQ(plan11.effective(conv), Precision::Fp32);
    EXPECT_NE(plan11.reason(conv).find("no calibrated scale"), std::string::npos) << plan11.reason(conv);
    EXPECT_NE(plan11.reason(conv).find("FP32, not FP16"), std::string::npos) << plan11.reason(conv);
    PrecisionPlan plan10 = defaultPrecisionPlan(graph);
    TrtPolicies(TrtVersion::Trt10, Precision::Fp16, &noRanges).apply(graph, plan10);
    EXPECT_EQ(plan10.effective(conv), Precision::Fp16);
}

}  // namespace
}  // namespace ql
