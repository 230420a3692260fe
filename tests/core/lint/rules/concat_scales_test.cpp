// trt-concat-scales: Concat inputs and output share one scale.
#include <gtest/gtest.h>

#include "tests/core/lint/lint_test_util.h"

namespace ql {
namespace {

constexpr const char* kRule = "trt-concat-scales";

std::unique_ptr<Model> concat(float scaleA, float scaleB, float scaleOut) {
    test::ModelBuilder b;
    b.input("a", DataType::Float, {1, 2, 4, 4});
    b.input("c", DataType::Float, {1, 2, 4, 4});
    const std::string a = test::addQdq(b, "a", test::perTensor(scaleA));
    const std::string c = test::addQdq(b, "c", test::perTensor(scaleB));
    b.node("Concat", {a, c}, {"cat"}, "concat").i("axis", 1);
    const std::string out = test::addQdq(b, "cat", test::perTensor(scaleOut));
    b.node("Relu", {out}, {"y"}, "relu");
    b.output("y");
    return b.load();
}

TEST(ConcatScalesRuleTest, DifferentScalesAddRequantizes) {
    const auto f = test::findingsOf(*concat(0.1f, 0.2f, 0.2f), kRule);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Warning);
    EXPECT_EQ(f[0].nodeName, "concat");
    EXPECT_NE(f[0].message.find("0.1"), std::string::npos) << f[0].message;
}

// YOLO's SPPF in ONNX Runtime's layout: an input quantized before a MaxPool (TensorRT runs the pool in INT8 with that
// scale) and the output quantized after a Reshape. Reported once, by this rule, not again as a requantize.
TEST(ConcatScalesRuleTest, ScalesAreFollowedThroughMaxPoolAndReshape) {
    test::ModelBuilder b;
    b.input("a", DataType::Float, {1, 2, 4, 4});
    b.input("c", DataType::Float, {1, 2, 4, 4});
    b.initializer("shape", DataType::Int64, {2}, {1, 64});
    b.node("MaxPool", {test::addQdq(b, "a", test::perTensor(0.1f))}, {"pooled"}, "pool")
        .ints("kernel_shape", {3, 3})
        .ints("pads", {1, 1, 1, 1});
    b.node("Concat", {"pooled", test::addQdq(b, "c", test::perTensor(0.2f))}, {"cat"}, "concat").i("axis", 1);
    b.node("Reshape", {"cat", "shape"}, {"flat"}, "flatten");
    b.node("Relu", {test::addQdq(b, "flat", test::perTensor(0.2f))}, {"y"}, "relu");
    b.output("y");
    const auto model = b.load();
    const auto f = test::findingsOf(*model, kRule);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_NE(f[0].message.find("input scales 0.1 differ from the output scale 0.2"), std::string::npos)
        << f[0].message;
    EXPECT_TRUE(test::findingsOf(*model, "trt-requantize").empty());
}

TEST(ConcatScalesRuleTest, SharedScaleIsFine) {
    EXPECT_TRUE(test::findingsOf(*concat(0.2f, 0.2f, 0.2f), kRule).empty());
}

// ONNX Runtime's UINT8 asymmetric activations: equal scales with different zero points still requantize.
TEST(ConcatScalesRuleTest, OnnxRuntimeUint8ZeroPointsThatDifferAreWarned) {
    test::ModelBuilder b;
    b.input("a", DataType::Float, {1, 2, 4, 4});
    b.input("c", DataType::Float, {1, 2, 4, 4});
    test::QdqSpec spec = test::perTensor(0.1f);
    spec.zeroPointType = DataType::UInt8;
    spec.zeroPoints = {128};
    const std::string a = test::addQdq(b, "a", spec);
    spec.zeroPoints = {100};
    const std::string c = test::addQdq(b, "c", spec);
    b.node("Concat", {a, c}, {"cat"}, "concat").i("axis", 1);
    spec.zeroPoints = {128};
    b.node("Relu", {test::addQdq(b, "cat", spec)}, {"y"}, "relu");
    b.output("y");
    const auto f = test::findingsOf(*b.load(), kRule);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].nodeName, "concat");
    EXPECT_NE(f[0].message.find("zero point 100"), std::string::npos) << f[0].message;
}

// pytorch-quantization and ModelOpt quantize only the Concat's consumer: TensorRT moves that Q onto every input.
TEST(ConcatScalesRuleTest, UnquantizedInputsTakeTheOutputScale) {
    test::ModelBuilder b;
    b.input("a", DataType::Float, {1, 2, 4, 4});
    b.input("c", DataType::Float, {1, 2, 4, 4});
    b.node("Relu", {"a"}, {"ra"}, "relu_a");
    b.node("Relu", {"c"}, {"rc"}, "relu_c");
    b.node("Concat", {"ra", "rc"}, {"cat"}, "concat").i("axis", 1);
    b.node("Relu", {test::addQdq(b, "cat", test::perTensor(0.2f))}, {"y"}, "relu");
    b.output("y");
    EXPECT_TRUE(test::findingsOf(*b.load(), kRule).empty());
}

}  // namespace
}  // namespace ql
