// trt-qdq-bias: biases must stay float.
#include <gtest/gtest.h>

#include "tests/core/lint/lint_test_util.h"

namespace ql {
namespace {

using test::ModelBuilder;

constexpr const char* kRule = "trt-qdq-bias";

// ONNX Runtime QDQ writes the Conv bias as DequantizeLinear(int32 bias, x_scale * w_scale).
std::unique_ptr<Model> conv(bool quantizedBias) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 4, 4, 4});
    b.initializer("w", {4, 4, 1, 1}, test::seededFloats(16));
    const std::string x = test::addQdq(b, "x");
    const std::string w = test::addQdq(b, "w", test::perChannel(4, 0.01f, 0));
    std::string bias = "b";
    if (quantizedBias) {
        b.initializer("b_quantized", DataType::Int32, {4}, {10, -20, 30, 40});
        b.initializer("b_scale", {4}, std::vector<float>(4, 0.0005f));
        b.initializer("b_zp", DataType::Int32, {4}, {0, 0, 0, 0});
        b.node("DequantizeLinear", {"b_quantized", "b_scale", "b_zp"}, {"b_dq"}, "bias_dq").i("axis", 0);
        bias = "b_dq";
    } else {
        b.initializer("b", {4}, {0.005f, -0.01f, 0.015f, 0.02f});
    }
    b.node("Conv", {x, w, bias}, {"y"}, "conv");
    b.output("y");
    return b.load();
}

TEST(QdqBiasRuleTest, QuantizedBiasIsAnError) {
    const auto f = test::findingsOf(*conv(true), kRule);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Error);
    EXPECT_EQ(f[0].nodeName, "bias_dq");
    EXPECT_NE(f[0].message.find("INT32"), std::string::npos) << f[0].message;
    EXPECT_NE(f[0].message.find("bias of Conv 'conv'"), std::string::npos) << f[0].message;
}

TEST(QdqBiasRuleTest, FloatBiasIsFine) {
    EXPECT_TRUE(test::findingsOf(*conv(false), kRule).empty());
}

}  // namespace
}  // namespace ql
