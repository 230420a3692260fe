// trt-softmax-norm-int8: Softmax and normalization layers run FP16/FP32.
#include <gtest/gtest.h>

#include "tests/core/lint/lint_test_util.h"

namespace ql {
namespace {

constexpr const char* kRule = "trt-softmax-norm-int8";

std::unique_ptr<Model> softmax(bool quantized) {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {2, 8});
    b.input("z", DataType::Float, {2, 8});
    const std::string x = quantized ? test::addQdq(b, "x") : "x";
    b.node("Softmax", {x}, {"y"}, "softmax");
    const std::string z = test::addQdq(b, "z");  // keeps the model explicitly quantized either way
    b.node("Relu", {z}, {"r"}, "relu");
    b.output("y");
    b.output("r");
    return b.load();
}

TEST(SoftmaxNormInt8RuleTest, QuantizedSoftmaxGainsNothing) {
    const auto f = test::findingsOf(*softmax(true), kRule);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Info);
    EXPECT_EQ(f[0].nodeName, "softmax");
    EXPECT_TRUE(f[0].causesFallback);
}

TEST(SoftmaxNormInt8RuleTest, FloatSoftmaxIsFine) {
    EXPECT_TRUE(test::findingsOf(*softmax(false), kRule).empty());
}

}  // namespace
}  // namespace ql
