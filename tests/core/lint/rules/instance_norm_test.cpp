// trt-instancenorm: implementation per version, and no INT8 path.
#include <gtest/gtest.h>

#include "tests/core/lint/lint_test_util.h"

namespace ql {
namespace {

using test::ModelBuilder;

constexpr const char* kRule = "trt-instancenorm";

std::unique_ptr<Model> model(const std::string& op, bool quantized) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 4, 8, 8});
    b.initializer("scale", {4}, {1, 1, 1, 1});
    b.initializer("bias", {4}, {0, 0, 0, 0});
    const std::string x = quantized ? test::addQdq(b, "x") : "x";
    if (op == "InstanceNormalization")
        b.node(op, {x, "scale", "bias"}, {"y"}, "norm");
    else
        b.node(op, {x}, {"y"}, "norm");
    b.output("y");
    return b.load();
}

TEST(InstanceNormRuleTest, PluginByDefaultOnTrt86NativeOnTrt10) {
    const auto m = model("InstanceNormalization", false);
    const auto f86 = test::findingsOf(*m, kRule, TrtVersion::Trt86);
    ASSERT_EQ(f86.size(), 1u);
    EXPECT_EQ(f86[0].severity, Severity::Warning);
    EXPECT_NE(f86[0].fix.find("--ni"), std::string::npos);
    const auto f10 = test::findingsOf(*m, kRule, TrtVersion::Trt10);
    ASSERT_EQ(f10.size(), 1u);
    EXPECT_EQ(f10[0].severity, Severity::Info);
}

TEST(InstanceNormRuleTest, QuantizedInstanceNormFallsBack) {
    const auto f = test::findingsOf(*model("InstanceNormalization", true), kRule);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Warning);
    EXPECT_TRUE(f[0].causesFallback);
}

TEST(InstanceNormRuleTest, OtherOpsAreNotConcerned) {
    EXPECT_TRUE(test::findingsOf(*model("Relu", true), kRule).empty());
}

}  // namespace
}  // namespace ql
