// trt-resize-interpolation-int8: a linear or cubic Resize that TensorRT runs on INT8 codes.
#include <gtest/gtest.h>

#include "tests/core/lint/lint_test_util.h"

namespace ql {
namespace {

constexpr const char* kRule = "trt-resize-interpolation-int8";

// DQ -> Resize(mode) -> Q with the same scale, as a tool that moves Q/DQ across the Resize writes it.
std::unique_ptr<Model> quantizedAround(const std::string& mode, float outScale = 0.05f) {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {1, 4, 4, 4});
    b.initializer("scales", {4}, {1, 1, 2, 2});
    b.node("Resize", {test::addQdq(b, "x"), "", "scales"}, {"up"}, "resize").s("mode", mode);
    b.node("Relu", {test::addQdq(b, "up", test::perTensor(outScale))}, {"y"}, "relu");
    b.output("y");
    return b.load();
}

TEST(ResizeInterpolationInt8RuleTest, LinearBetweenEqualScalesIsInformation) {
    const auto f = test::findingsOf(*quantizedAround("linear"), kRule);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Info);
    EXPECT_EQ(f[0].nodeName, "resize");
}

TEST(ResizeInterpolationInt8RuleTest, CubicOvershootIsAWarning) {
    const auto f = test::findingsOf(*quantizedAround("cubic"), kRule);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Warning);
    EXPECT_NE(f[0].message.find("overshoot"), std::string::npos) << f[0].message;
}

TEST(ResizeInterpolationInt8RuleTest, NearestCommutesWithQuantization) {
    EXPECT_TRUE(test::findingsOf(*quantizedAround("nearest"), kRule).empty());
}

// Different scales around the Resize: no folding into an INT8 Resize.
TEST(ResizeInterpolationInt8RuleTest, UnequalScalesAreQuiet) {
    EXPECT_TRUE(test::findingsOf(*quantizedAround("linear", 0.2f), kRule).empty());
}

// A float model: the default plan runs a Resize INT8 only between INT8 layers.
TEST(ResizeInterpolationInt8RuleTest, APlannedInt8LinearResizeIsInformation) {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {1, 4, 4, 4});
    b.initializer("w", {4, 4, 1, 1}, test::seededFloats(16));
    b.initializer("w2", {4, 4, 1, 1}, test::seededFloats(16, 5));
    b.initializer("scales", {4}, {1, 1, 2, 2});
    b.node("Conv", {"x", "w"}, {"c"}, "conv");
    b.node("Resize", {"c", "", "scales"}, {"up"}, "resize").s("mode", "linear");
    b.node("Conv", {"up", "w2"}, {"y"}, "conv2");
    b.output("y");
    const auto f = test::findingsOf(*b.load(), kRule);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].nodeName, "resize");
}

}  // namespace
}  // namespace ql
