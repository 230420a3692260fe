// trt-convtranspose-weight-axis: per-channel ConvTranspose weights on the axis of the target TensorRT.
#include <gtest/gtest.h>

#include "tests/core/lint/lint_test_util.h"

namespace ql {
namespace {

using test::ModelBuilder;

constexpr const char* kRule = "trt-convtranspose-weight-axis";

// ConvTranspose weight [cIn, cOut, 2, 2], quantized per channel on `axis` with `scales` scales (the way
// pytorch-quantization writes QuantConvTranspose2d).
std::unique_ptr<Model> deconv(int64_t cIn, int64_t cOut, int64_t axis, size_t scales) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, cIn, 4, 4});
    b.initializer("w", {cIn, cOut, 2, 2}, test::seededFloats(static_cast<size_t>(cIn * cOut * 4)));
    const std::string x = test::addQdq(b, "x");
    const std::string w = test::addQdq(b, "w", test::perChannel(scales, 0.02f, axis));
    b.node("ConvTranspose", {x, w}, {"y"}, "up").ints("strides", {2, 2});
    b.output("y");
    return b.load();
}

TEST(ConvTransposeWeightAxisRuleTest, OutputChannelAxisFailsTheBuildOnTrt86) {
    const auto model = deconv(16, 8, 1, 8);  // pytorch-quantization >= 10.2 default: axis 1
    const auto f = test::findingsOf(*model, kRule, TrtVersion::Trt86);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Error);
    EXPECT_EQ(f[0].nodeName, "up");
    EXPECT_NE(f[0].message.find("8 weight scales on axis 1"), std::string::npos) << f[0].message;
    EXPECT_TRUE(test::findingsOf(*model, kRule, TrtVersion::Trt10).empty());
}

TEST(ConvTransposeWeightAxisRuleTest, InputChannelAxisIsTheTrt86Convention) {
    const auto model = deconv(16, 8, 0, 16);  // pytorch-quantization 8.4 - 10.1 default: axis 0
    EXPECT_TRUE(test::findingsOf(*model, kRule, TrtVersion::Trt86).empty());
    const auto f = test::findingsOf(*model, kRule, TrtVersion::Trt10);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Warning);
}

TEST(ConvTransposeWeightAxisRuleTest, SquareWeightsOnTheWrongAxisBuildButAreWrong) {
    const auto f = test::findingsOf(*deconv(8, 8, 1, 8), kRule, TrtVersion::Trt86);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Warning);
}

TEST(ConvTransposeWeightAxisRuleTest, PerTensorWeightScaleIsValidEverywhere) {
    EXPECT_TRUE(test::findingsOf(*deconv(16, 8, 0, 1), kRule, TrtVersion::Trt86).empty());
    EXPECT_TRUE(test::findingsOf(*deconv(16, 8, 0, 1), kRule, TrtVersion::Trt10).empty());
}

}  // namespace
}  // namespace ql
