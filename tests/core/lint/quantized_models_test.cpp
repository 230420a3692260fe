// Lint on models that already carry Q/DQ, written the way the common quantization tools write them.
#include <gtest/gtest.h>

#include "tests/core/lint/lint_test_util.h"

namespace ql {
namespace {

using test::ModelBuilder;

// A residual block: conv1 -> relu -> conv2 -> Add(skip) -> relu, 16 channels (aligned for INT8).
// pytorch-quantization / TensorRT Model Optimizer style: FP32 weights behind Q -> DQ (INT8, zero point 0,
// per-channel axis 0), activations per tensor, the skip input quantized, no Q/DQ on the conv -> Add edge.
std::unique_ptr<Model> nvidiaStyleBlock() {
    ModelBuilder b;
    b.input("x", DataType::Float, {4, 16, 8, 8});
    b.initializer("w1", {16, 16, 3, 3}, test::seededFloats(2304));
    b.initializer("w2", {16, 16, 3, 3}, test::seededFloats(2304, 11));
    const std::string x = test::addQdq(b, "x");
    b.node("Conv", {x, test::addQdq(b, "w1", test::perChannel(16, 0.01f, 0))}, {"c1"}, "conv1")
        .ints("pads", {1, 1, 1, 1});
    b.node("Relu", {"c1"}, {"r1"}, "relu1");
    b.node("Conv", {test::addQdq(b, "r1"), test::addQdq(b, "w2", test::perChannel(16, 0.01f, 0))}, {"c2"}, "conv2")
        .ints("pads", {1, 1, 1, 1});
    b.node("Add", {"c2", x}, {"sum"}, "add");
    b.node("Relu", {"sum"}, {"y"}, "relu2");
    b.output("y");
    return b.load();
}

// ONNX Runtime quantize_static(QuantFormat.QDQ) with its defaults: UINT8 asymmetric activations, INT8 weights
// stored quantized (DequantizeLinear only), the bias stored as INT32 behind a DequantizeLinear.
std::unique_ptr<Model> onnxRuntimeDefaultQdq(bool symmetricActivations, bool quantizedBias) {
    ModelBuilder b;
    b.input("x", DataType::Float, {4, 16, 8, 8});
    test::QdqSpec act;
    if (!symmetricActivations) {
        act.zeroPointType = DataType::UInt8;
        act.zeroPoints = {118};
    }
    const std::string x = test::addQdq(b, "x", act);
    b.initializer("w_quantized", DataType::Int8, {16, 16, 1, 1}, std::vector<double>(256, 3.0));
    b.initializer("w_scale", {16}, std::vector<float>(16, 0.01f));
    b.initializer("w_zero_point", DataType::Int8, {16}, std::vector<double>(16, 0.0));
    b.node("DequantizeLinear", {"w_quantized", "w_scale", "w_zero_point"}, {"w_dq"}, "w_DequantizeLinear").i("axis", 0);
    std::string bias = "b";
    if (quantizedBias) {
        b.initializer("b_quantized", DataType::Int32, {16}, std::vector<double>(16, 7.0));
        b.initializer("b_scale", {16}, std::vector<float>(16, 0.0005f));
        b.initializer("b_zero_point", DataType::Int32, {16}, std::vector<double>(16, 0.0));
        b.node("DequantizeLinear", {"b_quantized", "b_scale", "b_zero_point"}, {"b_dq"}, "b_DequantizeLinear")
            .i("axis", 0);
        bias = "b_dq";
    } else {
        b.initializer("b", {16}, std::vector<float>(16, 0.01f));
    }
    b.node("Conv", {x, "w_dq", bias}, {"y"}, "conv");
    b.output("y");
    return b.load();
}

TEST(QuantizedModelsTest, NvidiaStyleResidualBlockIsClean) {
    const auto model = nvidiaStyleBlock();
    for (TrtVersion v : {TrtVersion::Trt86, TrtVersion::Trt10}) {
        const auto report = test::lintModel(*model, v);
        for (const Finding& f : report.findings) ADD_FAILURE() << f.ruleId << " on " << f.nodeName << ": " << f.message;
        EXPECT_EQ(report.coverage.int8Layers, 2);
    }
}

TEST(QuantizedModelsTest, OnnxRuntimeDefaultsAreRejected) {
    const auto model = onnxRuntimeDefaultQdq(false, true);
    const auto report = test::lintModel(*model);
    EXPECT_FALSE(test::findingsOf(*model, "trt-qdq-nonsymmetric").empty());
    EXPECT_EQ(test::findingsOf(*model, "trt-qdq-bias").size(), 1u);
    for (const Finding& f : report.findings) EXPECT_EQ(f.severity, Severity::Error) << f.ruleId << ": " << f.message;
}

TEST(QuantizedModelsTest, OnnxRuntimeSymmetricWithFloatBiasIsAccepted) {
    const auto model = onnxRuntimeDefaultQdq(true, false);
    const auto report = test::lintModel(*model);
    for (const Finding& f : report.findings) ADD_FAILURE() << f.ruleId << " on " << f.nodeName << ": " << f.message;
    EXPECT_EQ(report.coverage.int8Layers, 1);
}

}  // namespace
}  // namespace ql
