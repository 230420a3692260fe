// The linter: findings ordered by severity, coverage of the weighted layers, JSON/text reports, and the
// effective precision it gives the precision plan.
#include "core/lint/linter.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/lint/lint_policy.h"
#include "core/lint/lint_report.h"
#include "core/quant/default_placement.h"
#include "tests/core/lint/lint_test_util.h"

namespace ql {
namespace {

using test::ModelBuilder;

// A small FP32 CNN: an aligned conv, a depthwise conv with 6 channels (falls back on 10.x) and a classifier.
std::unique_ptr<Model> smallCnn() {
    ModelBuilder b;
    b.input("x", DataType::Float, {4, 16, 8, 8});
    b.initializer("w1", {6, 16, 1, 1}, test::seededFloats(96));
    b.initializer("w2", {6, 1, 3, 3}, test::seededFloats(54));
    b.initializer("shape", DataType::Int64, {2}, {4, 384});
    b.initializer("fc", {384, 16}, test::seededFloats(384 * 16));
    b.node("Conv", {"x", "w1"}, {"c1"}, "conv1");
    b.node("Relu", {"c1"}, {"r1"}, "relu1");
    b.node("Conv", {"r1", "w2"}, {"c2"}, "dw").i("group", 6).ints("pads", {1, 1, 1, 1});
    b.node("Reshape", {"c2", "shape"}, {"flat"}, "flatten");
    b.node("MatMul", {"flat", "fc"}, {"y"}, "classifier");
    b.output("y");
    return b.load();
}

TEST(LinterTest, FindingsAreOrderedBySeverityThenGraphOrder) {
    const auto model = smallCnn();
    const auto report = test::lintModel(*model, TrtVersion::Trt10);
    ASSERT_FALSE(report.findings.empty());
    for (size_t i = 1; i < report.findings.size(); ++i) {
        const Finding& a = report.findings[i - 1];
        const Finding& b = report.findings[i];
        EXPECT_TRUE(a.severity < b.severity || (a.severity == b.severity && a.node <= b.node));
    }
}

// A Concat that reads one small-range tensor twice beside a large one (a feature map repeated in an FPN): the rule
// meets that input twice and says the same thing twice; the report lists it once.
TEST(LinterTest, ARuleSayingTheSameThingTwiceIsListedOnce) {
    ModelBuilder b;
    b.input("small", DataType::Float, {1, 2, 4, 4});
    b.input("large", DataType::Float, {1, 2, 4, 4});
    const std::string s = test::addQdq(b, "small", test::perTensor(0.001f));
    const std::string l = test::addQdq(b, "large", test::perTensor(1.0f));
    b.node("Concat", {s, s, l}, {"y"}, "concat").i("axis", 1);
    b.output("y");
    const LintReport report = test::lintModel(*b.load());
    int shared = 0;
    for (const Finding& f : report.findings)
        if (f.ruleId == "trt-shared-scale-range") {
            ++shared;
            EXPECT_NE(f.message.find("input 'small_dq'"), std::string::npos) << f.message;
        }
    EXPECT_EQ(shared, 1);
}

TEST(LinterTest, CoverageCountsInt8AndFallbackLayers) {
    const auto model = smallCnn();
    const auto report = test::lintModel(*model, TrtVersion::Trt10);
    EXPECT_EQ(report.coverage.weightedLayers, 3);
    EXPECT_EQ(report.coverage.int8Layers, 2);
    ASSERT_EQ(report.coverage.fallbacks.size(), 1u);
    EXPECT_EQ(model->graph().node(report.coverage.fallbacks[0].node).name, "dw");
    EXPECT_EQ(coverageSummary(report.coverage),
              "2 of 3 weighted layers run INT8; 1 fall back: trt-grouped-conv-int8-alignment (1)");
}

TEST(LinterTest, PlanDecidesWhatIsChecked) {
    const auto model = smallCnn();
    PrecisionPlan plan = defaultPrecisionPlan(model->graph());
    plan.setRequested(*model->graph().findNode("dw"), Precision::Fp16);
    const auto report = lint(model->graph(), plan, {TrtVersion::Trt10});
    for (const Finding& f : report.findings) EXPECT_NE(f.ruleId, "trt-grouped-conv-int8-alignment");
    EXPECT_EQ(report.coverage.int8Layers, 2);
    EXPECT_TRUE(report.coverage.fallbacks.empty());
}

TEST(LinterTest, PolicyLowersTheEffectivePrecisionWithTheReason) {
    const auto model = smallCnn();
    const Graph& graph = model->graph();
    PrecisionPlan plan = defaultPrecisionPlan(graph);
    const LintPolicy policy(TrtVersion::Trt10);
    const PrecisionPolicy* policies[] = {&policy};
    plan.applyPolicies(graph, policies);
    const NodeId dw = *graph.findNode("dw");
    EXPECT_EQ(plan.requested(dw), Precision::Int8);
    EXPECT_EQ(plan.effective(dw), Precision::Fp16);
    EXPECT_NE(plan.reason(dw).find("trt-grouped-conv-int8-alignment"), std::string::npos) << plan.reason(dw);
    EXPECT_EQ(plan.effective(*graph.findNode("conv1")), Precision::Int8);
}

// Issue 18 item 9: a Clip (Relu6) fused into a depthwise conv that falls back runs in the conv's precision, and a
// BatchNormalization -> Relu chain after it follows too; activations after an INT8 conv stay INT8.
TEST(LinterTest, ActivationsFusedIntoALayerThatFallsBackFollowIt) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 16, 8, 8});
    b.initializer("w1", {6, 16, 1, 1}, test::seededFloats(96));
    b.initializer("w2", {6, 1, 3, 3}, test::seededFloats(54));
    b.initializer("lo", {}, {0.0f});
    b.initializer("hi", {}, {6.0f});
    for (const char* name : {"scale", "bias", "mean", "var"})
        b.initializer(name, {6}, test::seededFloats(6, 5, 0.5f, 1));
    b.node("Conv", {"x", "w1"}, {"c1"}, "conv1");
    b.node("Clip", {"c1", "lo", "hi"}, {"r1"}, "clip1");
    b.node("Conv", {"r1", "w2"}, {"c2"}, "dw").i("group", 6).ints("pads", {1, 1, 1, 1});
    b.node("Clip", {"c2", "lo", "hi"}, {"r2"}, "dw_clip");
    b.node("Conv", {"r1", "w2"}, {"c3"}, "dw2").i("group", 6).ints("pads", {1, 1, 1, 1});
    b.node("BatchNormalization", {"c3", "scale", "bias", "mean", "var"}, {"n3"}, "dw2_bn");
    b.node("Relu", {"n3"}, {"r3"}, "dw2_relu");
    b.node("Add", {"r2", "r3"}, {"y"}, "add");
    b.output("y");
    const auto model = b.load();
    const Graph& graph = model->graph();
    PrecisionPlan plan = defaultPrecisionPlan(graph);
    const LintPolicy policy(TrtVersion::Trt10);
    const PrecisionPolicy* policies[] = {&policy};
    plan.applyPolicies(graph, policies);
    for (const char* name : {"dw_clip", "dw2_bn", "dw2_relu"}) {
        const NodeId node = *graph.findNode(name);
        EXPECT_EQ(plan.requested(node), Precision::Int8) << name;
        EXPECT_EQ(plan.effective(node), Precision::Fp16) << name;
    }
    EXPECT_NE(plan.reason(*graph.findNode("dw_clip")).find("fused into dw, which runs FP16"), std::string::npos)
        << plan.reason(*graph.findNode("dw_clip"));
    EXPECT_EQ(plan.effective(*graph.findNode("clip1")), Precision::Int8);
}

TEST(LinterTest, JsonFollowsTheCliContract) {
    const auto model = smallCnn();
    const auto report = test::lintModel(*model, TrtVersion::Trt10);
    const auto j = toJson(report, model->graph(), TrtVersion::Trt10);
    ASSERT_TRUE(j.contains("findings"));
    for (const auto& f : j["findings"])
        for (const char* key : {"rule", "severity", "node", "op", "message", "fix"})
            EXPECT_TRUE(f.contains(key)) << key;
    EXPECT_EQ(j["coverage"]["int8_layers"], 2);
    EXPECT_EQ(j["coverage"]["weighted_layers"], 3);
    ASSERT_EQ(j["coverage"]["fallbacks"].size(), 1u);
    EXPECT_EQ(j["coverage"]["fallbacks"][0]["node"], "dw");
    EXPECT_EQ(j["coverage"]["fallbacks"][0]["rule"], "trt-grouped-conv-int8-alignment");
}

TEST(LinterTest, TextGroupsBySeverity) {
    const auto model = smallCnn();
    const auto report = test::lintModel(*model, TrtVersion::Trt86);
    const std::string text = toText(report, model->graph(), TrtVersion::Trt86);
    EXPECT_NE(text.find("TensorRT 8.6 lint"), std::string::npos) << text;
    const size_t warnings = text.find("\nwarning:\n");
    ASSERT_NE(warnings, std::string::npos) << text;
    EXPECT_GT(text.find("  [trt-grouped-conv-int8-alignment] dw (Conv): depthwise"), warnings) << text;
    EXPECT_NE(text.find("weighted layers run INT8"), std::string::npos) << text;
}

// Invalid models still load (checker problems become diagnostics): omitted inputs must not trip any rule.
TEST(LinterTest, OmittedInputsDoNotBreakAnyRule) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 4, 4, 4});
    b.initializer("w", {4, 4, 1, 1}, test::seededFloats(16));
    const std::string x = test::addQdq(b, "x");
    b.node("Conv", {"", "w"}, {"c"}, "conv");
    b.node("Add", {x, ""}, {"a"}, "add");
    b.node("Relu", {""}, {"r"}, "relu");
    b.node("DequantizeLinear", {"", ""}, {"d"}, "dq");
    b.output("a");
    auto model = b.tryLoad();
    if (!model) GTEST_SKIP() << model.status().message();
    for (TrtVersion v : {TrtVersion::Trt86, TrtVersion::Trt10})
        for (const Finding& f : test::lintModel(**model, v).findings)
            EXPECT_EQ(f.message.find("internal error"), std::string::npos) << f.ruleId << ": " << f.message;
}

}  // namespace
}  // namespace ql
