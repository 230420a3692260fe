// trt-qdq-scale-positive: a zero, negative or non-finite scale stops the build ("scaleAllPositive").
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "tests/core/lint/lint_test_util.h"

namespace ql {
namespace {

constexpr const char* kRule = "trt-qdq-scale-positive";

// A conv whose weight is quantized per output channel with the given scales.
std::unique_ptr<Model> conv(const std::vector<float>& weightScales) {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {1, 2, 4, 4});
    b.initializer("w", {static_cast<int64_t>(weightScales.size()), 2, 1, 1},
                  test::seededFloats(weightScales.size() * 2));
    const std::string x = test::addQdq(b, "x");
    test::QdqSpec spec;
    spec.scales = weightScales;
    spec.axis = 0;
    const std::string w = test::addQdq(b, "w", spec);
    b.node("Conv", {x, w}, {"y"}, "conv");
    b.output("y");
    return b.load();
}

TEST(QdqScalePositiveRuleTest, ADeadChannelsZeroScaleIsAnError) {
    const auto f = test::findingsOf(*conv({0.01f, 0.0f, 0.02f, -0.5f}), kRule);
    ASSERT_EQ(f.size(), 2u);  // on the QuantizeLinear and the DequantizeLinear of the weight
    EXPECT_EQ(f[0].severity, Severity::Error);
    EXPECT_NE(f[0].message.find("'w'"), std::string::npos) << f[0].message;
    EXPECT_NE(f[0].message.find("channel 1: 0, channel 3: -0.5"), std::string::npos) << f[0].message;
    EXPECT_NE(f[0].message.find("scaleAllPositive"), std::string::npos) << f[0].message;
}

TEST(QdqScalePositiveRuleTest, ANanScaleIsAnError) {
    EXPECT_EQ(test::findingsOf(*conv({0.01f, std::numeric_limits<float>::quiet_NaN()}), kRule).size(), 2u);
}

TEST(QdqScalePositiveRuleTest, PositiveScalesAreQuiet) {
    EXPECT_TRUE(test::findingsOf(*conv({0.01f, 1e-10f, 0.02f}), kRule).empty());
}

}  // namespace
}  // namespace ql
