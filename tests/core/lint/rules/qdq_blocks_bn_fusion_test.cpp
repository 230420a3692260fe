// trt-qdq-blocks-bn-fusion: no Q/DQ between Conv and BatchNormalization, nor between BN and ReLU.
#include <gtest/gtest.h>

#include "tests/core/lint/lint_test_util.h"

namespace ql {
namespace {

using test::ModelBuilder;

constexpr const char* kRule = "trt-qdq-blocks-bn-fusion";

// Q/DQ conv -> [Q/DQ] -> BN -> [Q/DQ] -> Relu.
std::unique_ptr<Model> convBnRelu(bool qdqBeforeBn, bool qdqBeforeRelu) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 4, 4, 4});
    b.initializer("w", {4, 4, 1, 1}, test::seededFloats(16));
    for (const char* p : {"s", "b", "m", "v"}) b.initializer(p, {4}, std::vector<float>(4, p[0] == 'v' ? 1.f : 0.5f));
    const std::string x = test::addQdq(b, "x");
    const std::string w = test::addQdq(b, "w", test::perChannel(4, 0.01f, 0));
    b.node("Conv", {x, w}, {"c"}, "conv");
    const std::string bnIn = qdqBeforeBn ? test::addQdq(b, "c") : "c";
    b.node("BatchNormalization", {bnIn, "s", "b", "m", "v"}, {"n"}, "bn");
    const std::string reluIn = qdqBeforeRelu ? test::addQdq(b, "n") : "n";
    b.node("Relu", {reluIn}, {"y"}, "relu");
    b.output("y");
    return b.load();
}

TEST(QdqBlocksBnFusionRuleTest, QdqBetweenConvAndBatchNormIsWarned) {
    const auto f = test::findingsOf(*convBnRelu(true, false), kRule);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Warning);
    EXPECT_EQ(f[0].nodeName, "bn");
    EXPECT_NE(f[0].message.find("'conv'"), std::string::npos) << f[0].message;
}

TEST(QdqBlocksBnFusionRuleTest, QdqBetweenBatchNormAndReluIsWarned) {
    const auto f = test::findingsOf(*convBnRelu(false, true), kRule);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].nodeName, "relu");
}

TEST(QdqBlocksBnFusionRuleTest, ConvBnReluWithoutInnerQdqIsFine) {
    EXPECT_TRUE(test::findingsOf(*convBnRelu(false, false), kRule).empty());
}

// Without a conv before the BatchNormalization there is no Conv+BN+ReLU fusion for the pair to block.
TEST(QdqBlocksBnFusionRuleTest, BatchNormWithoutConvIsNotAFusion) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 4, 4, 4});
    for (const char* p : {"s", "b", "m", "v"}) b.initializer(p, {4}, std::vector<float>(4, p[0] == 'v' ? 1.f : 0.5f));
    b.node("BatchNormalization", {"x", "s", "b", "m", "v"}, {"n"}, "bn");
    b.node("Relu", {test::addQdq(b, "n")}, {"y"}, "relu");
    b.output("y");
    EXPECT_TRUE(test::findingsOf(*b.load(), kRule).empty());
}

// ONNX Runtime puts Q/DQ on every edge: conv -> Q/DQ -> BN -> Q/DQ -> Relu is warned on both.
TEST(QdqBlocksBnFusionRuleTest, QdqOnBothEdgesIsWarnedTwice) {
    const auto f = test::findingsOf(*convBnRelu(true, true), kRule);
    ASSERT_EQ(f.size(), 2u);
    EXPECT_EQ(f[0].nodeName, "bn");
    EXPECT_EQ(f[1].nodeName, "relu");
}

}  // namespace
}  // namespace ql
