// trt-qdq-splits-fusion: Q/DQ inside Conv -> Sigmoid -> Mul (SiLU) or between a ConvTranspose and its activation.
#include <gtest/gtest.h>

#include "tests/core/lint/lint_test_util.h"

namespace ql {
namespace {

constexpr const char* kRule = "trt-qdq-splits-fusion";

enum class SiluQdq { None, AfterConv, AfterSigmoid };

// x -> Q/DQ -> Conv -> BN -> [Q/DQ] -> Sigmoid -> [Q/DQ] -> Mul(x, .) -> Q/DQ -> Conv: a YOLO block as ONNX
// Runtime's quantizer (Q/DQ after every op) or NVIDIA's tools (Q/DQ at the partition's edges) write it.
std::unique_ptr<Model> siluBlock(SiluQdq where) {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {1, 4, 4, 4});
    b.initializer("w", {4, 4, 1, 1}, test::seededFloats(16));
    b.initializer("w2", {4, 4, 1, 1}, test::seededFloats(16, 3));
    for (const char* p : {"gamma", "beta", "mean", "var"}) b.initializer(p, {4}, {1.0f, 0.5f, 0.25f, 1.0f});
    b.node("Conv", {test::addQdq(b, "x"), test::addQdq(b, "w", test::perChannel(4, 0.01f, 0))}, {"c"}, "conv");
    b.node("BatchNormalization", {"c", "gamma", "beta", "mean", "var"}, {"bn"}, "bn");
    const std::string x = where == SiluQdq::AfterConv ? test::addQdq(b, "bn") : "bn";
    b.node("Sigmoid", {x}, {"sig"}, "sigmoid");
    const std::string sig = where == SiluQdq::AfterSigmoid ? test::addQdq(b, "sig") : "sig";
    b.node("Mul", {x, sig}, {"silu"}, "mul");
    b.node("Conv", {test::addQdq(b, "silu"), test::addQdq(b, "w2", test::perChannel(4, 0.01f, 0))}, {"y"}, "next");
    b.output("y");
    return b.load();
}

TEST(QdqSplitsFusionRuleTest, QdqAfterTheConvInsideTheSiluIsReported) {
    const auto f = test::findingsOf(*siluBlock(SiluQdq::AfterConv), kRule);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].nodeName, "mul");
    EXPECT_NE(f[0].message.find("SiLU of Conv 'conv' (Sigmoid 'sigmoid' -> Mul)"), std::string::npos) << f[0].message;
}

TEST(QdqSplitsFusionRuleTest, QdqBetweenSigmoidAndMulIsReported) {
    EXPECT_EQ(test::findingsOf(*siluBlock(SiluQdq::AfterSigmoid), kRule).size(), 1u);
}

TEST(QdqSplitsFusionRuleTest, QdqOnlyAtThePartitionsEdgesIsQuiet) {
    EXPECT_TRUE(test::findingsOf(*siluBlock(SiluQdq::None), kRule).empty());
}

std::unique_ptr<Model> deconvRelu(bool qdqBetween) {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {1, 4, 4, 4});
    b.initializer("w", {4, 4, 2, 2}, test::seededFloats(64));
    b.node("ConvTranspose", {test::addQdq(b, "x"), test::addQdq(b, "w")}, {"up"}, "deconv").ints("strides", {2, 2});
    b.node("Relu", {qdqBetween ? test::addQdq(b, "up") : "up"}, {"y"}, "relu");
    b.output("y");
    return b.load();
}

TEST(QdqSplitsFusionRuleTest, QdqBetweenConvTransposeAndItsActivationIsReported) {
    const auto f = test::findingsOf(*deconvRelu(true), kRule);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].nodeName, "relu");
    EXPECT_NE(f[0].message.find("ConvTranspose 'deconv'"), std::string::npos) << f[0].message;
    EXPECT_TRUE(test::findingsOf(*deconvRelu(false), kRule).empty());
}

}  // namespace
}  // namespace ql
