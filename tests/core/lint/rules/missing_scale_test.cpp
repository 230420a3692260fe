// trt-missing-scale: a weighted layer needs scales on both its data and its weight to run INT8.
#include <gtest/gtest.h>

#include "tests/core/lint/lint_test_util.h"

namespace ql {
namespace {

using test::ModelBuilder;

constexpr const char* kRule = "trt-missing-scale";

std::unique_ptr<Model> conv(bool quantizeData, bool quantizeWeight) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 16, 4, 4});
    b.initializer("w", {16, 16, 1, 1}, test::seededFloats(256));
    const std::string x = quantizeData ? test::addQdq(b, "x") : "x";
    const std::string w = quantizeWeight ? test::addQdq(b, "w", test::perChannel(16, 0.01f, 0)) : "w";
    b.node("Conv", {x, w}, {"y"}, "conv");
    b.output("y");
    return b.load();
}

TEST(MissingScaleRuleTest, UnquantizedWeightMakesTheLayerFallBack) {
    const auto model = conv(true, false);
    const auto report = test::lintModel(*model);
    std::vector<Finding> f;
    for (const auto& x : report.findings)
        if (x.ruleId == kRule) f.push_back(x);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Warning);
    EXPECT_TRUE(f[0].causesFallback);
    EXPECT_NE(f[0].message.find("weight input 'w' has no scale"), std::string::npos) << f[0].message;
    EXPECT_EQ(report.coverage.int8Layers, 0);
    EXPECT_EQ(report.coverage.weightedLayers, 1);
    ASSERT_EQ(report.coverage.fallbacks.size(), 1u);
}

TEST(MissingScaleRuleTest, UnquantizedDataIsReportedToo) {
    const auto model = conv(false, true);
    const auto f = test::findingsOf(*model, kRule);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_NE(f[0].message.find("data input 'x'"), std::string::npos) << f[0].message;
}

TEST(MissingScaleRuleTest, FullyQuantizedLayerRunsInt8) {
    const auto model = conv(true, true);
    const auto report = test::lintModel(*model);
    EXPECT_TRUE(test::findingsOf(*model, kRule).empty());
    EXPECT_EQ(report.coverage.int8Layers, 1);
}

}  // namespace
}  // namespace ql
