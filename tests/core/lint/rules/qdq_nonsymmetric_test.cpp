// trt-qdq-nonsymmetric: symmetric INT8 Q/DQ with constant positive scales.
#include <gtest/gtest.h>

#include "tests/core/lint/lint_test_util.h"

namespace ql {
namespace {

using test::ModelBuilder;

constexpr const char* kRule = "trt-qdq-nonsymmetric";

std::unique_ptr<Model> qdqRelu(const test::QdqSpec& spec) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 4});
    const std::string x = test::addQdq(b, "x", spec);
    b.node("Relu", {x}, {"y"}, "relu");
    b.output("y");
    return b.load();
}

TEST(QdqNonsymmetricRuleTest, SymmetricInt8IsFine) {
    EXPECT_TRUE(test::findingsOf(*qdqRelu({}), kRule).empty());
}

// ONNX Runtime's static QDQ default: UINT8 activations with a non-zero zero point.
TEST(QdqNonsymmetricRuleTest, AsymmetricUint8IsAnError) {
    test::QdqSpec spec;
    spec.zeroPointType = DataType::UInt8;
    spec.zeroPoints = {128};
    const auto f = test::findingsOf(*qdqRelu(spec), kRule);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Error);
    EXPECT_EQ(f[0].nodeName, "x_dqnode");
    EXPECT_NE(f[0].message.find("UINT8"), std::string::npos) << f[0].message;
    EXPECT_NE(f[0].message.find("holds 128"), std::string::npos) << f[0].message;
}

TEST(QdqNonsymmetricRuleTest, NonZeroInt8ZeroPointIsAnError) {
    test::QdqSpec spec;
    spec.zeroPoints = {3};
    const auto f = test::findingsOf(*qdqRelu(spec), kRule);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_NE(f[0].message.find("holds 3"), std::string::npos) << f[0].message;
    // The text users see from TensorRT (NVIDIA/TensorRT #4698), so they can search for it.
    EXPECT_NE(f[0].message.find("shiftIsAllZeros(zeroPoint): Non-zero zero point is not supported"), std::string::npos)
        << f[0].message;
}

TEST(QdqNonsymmetricRuleTest, NonPositiveScaleIsAnError) {
    test::QdqSpec spec;
    spec.scales = {0.0f};
    const auto f = test::findingsOf(*qdqRelu(spec), kRule);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_NE(f[0].message.find("not a positive value"), std::string::npos) << f[0].message;
}

TEST(QdqNonsymmetricRuleTest, QuantizeWithoutZeroPointIsAWarning) {
    test::QdqSpec spec;
    spec.withZeroPoint = false;
    const auto f = test::findingsOf(*qdqRelu(spec), kRule);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Warning);
    EXPECT_EQ(f[0].nodeName, "x_q");
}

}  // namespace
}  // namespace ql
