// trt-unsupported-op: operators TensorRT cannot import, including ONNX Runtime's quantized-operator format.
#include <gtest/gtest.h>

#include "tests/core/lint/lint_test_util.h"

namespace ql {
namespace {

using test::ModelBuilder;

constexpr const char* kRule = "trt-unsupported-op";

TEST(UnsupportedOpRuleTest, UnsupportedOperatorFailsTheBuild) {
    auto model = [](const std::string& op) {
        ModelBuilder b;
        b.input("x", DataType::Float, {3, 3});
        b.node(op, {"x"}, {"y"}, "op");
        b.output("y");
        return b.load();
    };
    const auto f = test::findingsOf(*model("Det"), kRule);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Error);
    EXPECT_EQ(f[0].opType, "Det");
    EXPECT_TRUE(test::findingsOf(*model("Relu"), kRule).empty());
}

TEST(UnsupportedOpRuleTest, UniqueIsNotSupported) {
    ModelBuilder b(13);
    b.input("x", DataType::Float, {4});
    b.node("Unique", {"x"}, {"y"}, "unique");
    b.output("y");
    const auto f = test::findingsOf(*b.load(), kRule);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Error);
    EXPECT_EQ(f[0].nodeName, "unique");
}

TEST(UnsupportedOpRuleTest, HardmaxIsSupportedOnlyFromTrt10) {
    ModelBuilder b(13);
    b.input("x", DataType::Float, {2, 4});
    b.node("Hardmax", {"x"}, {"y"}, "hardmax");
    b.output("y");
    const auto model = b.load();
    EXPECT_EQ(test::findingsOf(*model, kRule, TrtVersion::Trt86).size(), 1u);
    EXPECT_TRUE(test::findingsOf(*model, kRule, TrtVersion::Trt10).empty());
}

// What onnxruntime.quantization.quantize_dynamic writes for a Conv: DynamicQuantizeLinear + ConvInteger.
TEST(UnsupportedOpRuleTest, OnnxRuntimeDynamicQuantizationIsNotImportable) {
    ModelBuilder b(13);
    b.input("x", DataType::Float, {1, 3, 8, 8});
    b.initializer("w_quantized", DataType::Int8, {4, 3, 3, 3}, std::vector<double>(108, 1.0));
    b.initializer("w_zero_point", DataType::Int8, {}, {0});
    b.node("DynamicQuantizeLinear", {"x"}, {"x_q", "x_scale", "x_zp"}, "x_DynamicQuantizeLinear");
    b.node("ConvInteger", {"x_q", "w_quantized", "x_zp", "w_zero_point"}, {"y_int"}, "conv_quant");
    b.node("Cast", {"y_int"}, {"y"}, "cast").i("to", 1);
    b.output("y");
    const auto f = test::findingsOf(*b.load(), kRule);
    ASSERT_EQ(f.size(), 2u);
    for (const auto& finding : f) {
        EXPECT_EQ(finding.severity, Severity::Error);
        EXPECT_NE(finding.fix.find("Q/DQ"), std::string::npos) << finding.fix;
    }
}

// A dynamically quantized model has these ops once per layer: one finding per operator, with the count, on its first
// node (not hundreds of the same error).
TEST(UnsupportedOpRuleTest, OperatorFormIsReportedOncePerOperator) {
    ModelBuilder b(13);
    b.opset("com.microsoft", 1);
    b.input("x", DataType::Float, {1, 3, 8, 8});
    b.initializer("w_quantized", DataType::Int8, {3, 3, 1, 1}, std::vector<double>(9, 1.0));
    b.initializer("w_zero_point", DataType::Int8, {}, {0});
    std::string in = "x";
    for (int i = 0; i < 3; ++i) {
        const std::string n = std::to_string(i);
        b.node("DynamicQuantizeLinear", {in}, {"q" + n, "s" + n, "z" + n}, "dql" + n);
        b.node("ConvInteger", {"q" + n, "w_quantized", "z" + n, "w_zero_point"}, {"acc" + n}, "conv" + n);
        b.node("Cast", {"acc" + n}, {"f" + n}, "cast" + n).i("to", 1);
        in = "f" + n;
    }
    b.initializer("ys", {}, {0.1f});
    b.initializer("yz", DataType::UInt8, {}, {128});
    b.node("QuantizeLinear", {in, "ys", "yz"}, {"yq"}, "quantize");
    b.node("QLinearSigmoid", {"yq", "ys", "yz", "ys", "yz"}, {"sq"}, "sigmoid").domain("com.microsoft");
    b.node("DequantizeLinear", {"sq", "ys", "yz"}, {"y"}, "dequantize");
    b.output("y");
    const auto f = test::findingsOf(*b.load(), kRule);
    ASSERT_EQ(f.size(), 3u);
    EXPECT_EQ(f[0].nodeName, "dql0");
    EXPECT_NE(f[0].message.find("DynamicQuantizeLinear (3 nodes) is ONNX Runtime's"), std::string::npos)
        << f[0].message;
    EXPECT_EQ(f[1].nodeName, "conv0");
    EXPECT_NE(f[1].message.find("ConvInteger (3 nodes)"), std::string::npos) << f[1].message;
    EXPECT_NE(f[2].message.find("com.microsoft::QLinearSigmoid (1 node)"), std::string::npos) << f[2].message;
    for (const auto& finding : f) EXPECT_NE(finding.fix.find("quantlens-cli quantize"), std::string::npos);
}

TEST(UnsupportedOpRuleTest, CustomDomainOperatorNeedsAPlugin) {
    ModelBuilder b(13);
    b.opset("com.example", 1);
    b.input("x", DataType::Float, {4});
    b.node("Relu", {"x"}, {"r"}, "relu");
    b.node("MyOp", {"r"}, {"y"}, "custom").domain("com.example");
    b.output("y");
    const auto f = test::findingsOf(*b.load(), kRule);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].nodeName, "custom");
}

// What Model Optimizer writes for FP8: TensorRT's own Q/DQ ops in the "trt" domain.
std::unique_ptr<Model> trtFp8Qdq() {
    ModelBuilder b(13);
    b.opset("trt", 1);
    b.input("x", DataType::Float, {1, 4});
    b.initializer("s", {}, {0.5f});
    b.node("TRT_FP8QuantizeLinear", {"x", "s"}, {"x_q"}, "x_q").domain("trt");
    b.node("TRT_FP8DequantizeLinear", {"x_q", "s"}, {"x_dq"}, "x_dq").domain("trt");
    b.node("Relu", {"x_dq"}, {"y"}, "relu");
    b.output("y");
    return b.load();
}

TEST(UnsupportedOpRuleTest, TrtQuantizationOpsAreRecognizedFromTrt10) {
    const auto model = trtFp8Qdq();
    EXPECT_TRUE(test::findingsOf(*model, kRule, TrtVersion::Trt10).empty());
    EXPECT_TRUE(test::findingsOf(*model, kRule, TrtVersion::Trt11).empty());
}

TEST(UnsupportedOpRuleTest, TrtQuantizationOpsAreUnsupportedOnTrt86) {
    const auto f = test::findingsOf(*trtFp8Qdq(), kRule, TrtVersion::Trt86);
    ASSERT_EQ(f.size(), 2u);
    EXPECT_EQ(f[0].severity, Severity::Error);
    EXPECT_NE(f[0].message.find("10.15"), std::string::npos) << f[0].message;
}

}  // namespace
}  // namespace ql
