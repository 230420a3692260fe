// trt-requantize: DQ -> data movement -> Q with another scale is an extra requantize kernel.
#include <gtest/gtest.h>

#include "tests/core/lint/lint_test_util.h"

namespace ql {
namespace {

constexpr const char* kRule = "trt-requantize";

// x -> Q/DQ(scaleIn) -> MaxPool -> Reshape -> Q/DQ(scaleOut) -> Relu
std::unique_ptr<Model> poolThenRequantize(float scaleIn, float scaleOut) {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {1, 4, 8, 8});
    const std::string x = test::addQdq(b, "x", test::perTensor(scaleIn));
    b.node("MaxPool", {x}, {"pool"}, "pool").ints("kernel_shape", {2, 2}).ints("strides", {2, 2});
    b.initializer("shape", DataType::Int64, {2}, {1, 64});
    b.node("Reshape", {"pool", "shape"}, {"flat"}, "flatten");
    const std::string flat = test::addQdq(b, "flat", test::perTensor(scaleOut));
    b.node("Relu", {flat}, {"y"}, "relu");
    b.output("y");
    return b.load();
}

TEST(RequantizeRuleTest, DifferentScaleAfterDataMovementIsWarned) {
    const auto f = test::findingsOf(*poolThenRequantize(0.1f, 0.05f), kRule);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Warning);
    EXPECT_EQ(f[0].nodeName, "flat_q");
    EXPECT_NE(f[0].message.find("0.1"), std::string::npos) << f[0].message;
    EXPECT_NE(f[0].message.find("0.05"), std::string::npos) << f[0].message;
    EXPECT_NE(f[0].message.find("MaxPool -> Reshape"), std::string::npos) << f[0].message;
    EXPECT_NE(f[0].fix.find("same scale"), std::string::npos) << f[0].fix;
}

TEST(RequantizeRuleTest, EqualScalesCancelAndAreQuiet) {
    EXPECT_TRUE(test::findingsOf(*poolThenRequantize(0.1f, 0.1f), kRule).empty());
    EXPECT_TRUE(test::findingsOf(*poolThenRequantize(0.1f, 0.1f), kRule, TrtVersion::Trt86).empty());
}

// Arithmetic between the DQ and the Q (a Conv) is a real layer, not a requantize.
TEST(RequantizeRuleTest, ComputeLayerBetweenIsQuiet) {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {1, 4, 8, 8});
    const std::string x = test::addQdq(b, "x", test::perTensor(0.1f));
    b.initializer("w", {16, 4, 1, 1}, test::seededFloats(64));
    b.node("Conv", {x, "w"}, {"c"}, "conv");
    const std::string c = test::addQdq(b, "c", test::perTensor(0.02f));
    b.node("Relu", {c}, {"y"}, "relu");
    b.output("y");
    EXPECT_TRUE(test::findingsOf(*b.load(), kRule).empty());
}

// A bare DQ -> Concat -> Q is trt-concat-scales' finding, not a second one here.
TEST(RequantizeRuleTest, PlainConcatIsLeftToConcatScales) {
    test::ModelBuilder b;
    b.input("a", DataType::Float, {1, 2, 4, 4});
    b.input("c", DataType::Float, {1, 2, 4, 4});
    const std::string a = test::addQdq(b, "a", test::perTensor(0.1f));
    const std::string c = test::addQdq(b, "c", test::perTensor(0.2f));
    b.node("Concat", {a, c}, {"cat"}, "concat").i("axis", 1);
    const std::string out = test::addQdq(b, "cat", test::perTensor(0.2f));
    b.node("Relu", {out}, {"y"}, "relu");
    b.output("y");
    const auto model = b.load();
    EXPECT_TRUE(test::findingsOf(*model, kRule).empty());
    EXPECT_EQ(test::findingsOf(*model, "trt-concat-scales").size(), 1u);
}

}  // namespace
}  // namespace ql
