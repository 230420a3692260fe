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

// The residual blocks below, one per quantization tool, as the three producer-chain rules see them.
constexpr const char* kResidualRule = "trt-residual-add-unquantized-input";
constexpr const char* kBnRule = "trt-qdq-blocks-bn-fusion";
constexpr const char* kConcatRule = "trt-concat-scales";

void batchNorm(ModelBuilder& b, const std::string& in, const std::string& out, const std::string& name) {
    b.initializer(name + "_s", {16}, std::vector<float>(16, 1.0f));
    b.initializer(name + "_b", {16}, std::vector<float>(16, 0.0f));
    b.initializer(name + "_m", {16}, std::vector<float>(16, 0.0f));
    b.initializer(name + "_v", {16}, std::vector<float>(16, 1.0f));
    b.node("BatchNormalization", {in, name + "_s", name + "_b", name + "_m", name + "_v"}, {out}, name);
}

// A float weight behind Q -> DQ, per channel (pytorch-quantization, ModelOpt).
std::string fakeQuantWeight(ModelBuilder& b, const std::string& name) {
    b.initializer(name, {16, 16, 3, 3}, test::seededFloats(2304));
    return test::addQdq(b, name, test::perChannel(16, 0.01f, 0));
}

// An INT8 weight stored quantized behind a lone DequantizeLinear (ONNX Runtime, QuantLens's export).
std::string int8Weight(ModelBuilder& b, const std::string& name) {
    b.initializer(name + "_quantized", DataType::Int8, {16, 16, 3, 3}, std::vector<double>(2304, 3.0));
    b.initializer(name + "_scale", {16}, std::vector<float>(16, 0.01f));
    b.initializer(name + "_zero_point", DataType::Int8, {16}, std::vector<double>(16, 0.0));
    b.node("DequantizeLinear", {name + "_quantized", name + "_scale", name + "_zero_point"}, {name + "_dq"},
           name + "_DequantizeLinear")
        .i("axis", 0);
    return name + "_dq";
}

void conv(ModelBuilder& b, const std::string& x, const std::string& w, const std::string& out,
          const std::string& name) {
    b.node("Conv", {x, w}, {out}, name).ints("pads", {1, 1, 1, 1});
}

// pytorch-quantization (quant_modules on torchvision's BasicBlock): Q/DQ on Conv inputs and weights, BN not folded,
// the identity not quantized: `out += identity` cannot fuse into conv2. `qdqAfterBn`: a Q/DQ pair after each BN of
// the main branch; else the pair sits between each conv and its BN (a quantized Sequential(Conv, BN)).
std::unique_ptr<Model> pytorchQuantizationBlock(bool qdqAfterBn) {
    ModelBuilder b;
    b.input("x", DataType::Float, {4, 16, 8, 8});
    conv(b, test::addQdq(b, "x"), fakeQuantWeight(b, "w1"), "c1", "conv1");
    batchNorm(b, qdqAfterBn ? "c1" : test::addQdq(b, "c1"), "n1", "bn1");
    b.node("Relu", {qdqAfterBn ? test::addQdq(b, "n1") : "n1"}, {"r1"}, "relu1");
    conv(b, test::addQdq(b, "r1"), fakeQuantWeight(b, "w2"), "c2", "conv2");
    batchNorm(b, qdqAfterBn ? "c2" : test::addQdq(b, "c2"), "n2", "bn2");
    b.node("Add", {qdqAfterBn ? test::addQdq(b, "n2") : "n2", "x"}, {"sum"}, "add");
    b.node("Relu", {"sum"}, {"y"}, "relu2");
    b.output(test::addQdq(b, "y"));  // the next block's quantize
    return b.load();
}

// TensorRT Model Optimizer: BN folded, Q/DQ on conv inputs, the residual Add quantized on its skip input only.
// `downsample`: the skip is a 1x1-like conv branch (its own conv, then Q/DQ) instead of the identity.
std::unique_ptr<Model> modelOptBlock(bool downsample) {
    ModelBuilder b;
    b.input("x", DataType::Float, {4, 16, 8, 8});
    const std::string x = test::addQdq(b, "x");
    conv(b, x, fakeQuantWeight(b, "w1"), "c1", "conv1");
    b.node("Relu", {"c1"}, {"r1"}, "relu1");
    conv(b, test::addQdq(b, "r1"), fakeQuantWeight(b, "w2"), "c2", "conv2");
    std::string skip = x;
    if (downsample) {
        conv(b, x, fakeQuantWeight(b, "wd"), "ds", "downsample");
        skip = test::addQdq(b, "ds");
    }
    b.node("Add", {"c2", skip}, {"sum"}, "add");
    b.node("Relu", {"sum"}, {"y"}, "relu2");
    b.output("y");
    return b.load();
}

// ONNX Runtime quantize_static(QuantFormat.QDQ) without its pre-optimization: Q/DQ on every op's inputs and outputs
// (so on the conv -> BN, BN -> Relu and conv -> Add edges), INT8 weights stored quantized. `uint8`: its default
// asymmetric UINT8 activations.
std::unique_ptr<Model> onnxRuntimeBlock(bool uint8) {
    ModelBuilder b;
    test::QdqSpec act;
    if (uint8) {
        act.zeroPointType = DataType::UInt8;
        act.zeroPoints = {128};
    }
    b.input("x", DataType::Float, {4, 16, 8, 8});
    const std::string x = test::addQdq(b, "x", act);
    conv(b, x, int8Weight(b, "w1"), "c1", "conv1");
    batchNorm(b, test::addQdq(b, "c1", act), "n1", "bn1");
    b.node("Relu", {test::addQdq(b, "n1", act)}, {"r1"}, "relu1");
    conv(b, test::addQdq(b, "r1", act), int8Weight(b, "w2"), "c2", "conv2");
    b.node("Add", {test::addQdq(b, "c2", act), x}, {"sum"}, "add");
    b.node("Relu", {test::addQdq(b, "sum", act)}, {"y"}, "relu2");
    b.output("y");
    return b.load();
}

// QuantLens's own export (quantlens-cli quantize): BN folded first, Q/DQ on the weighted layers' inputs (INT8
// weights behind a lone DequantizeLinear) and a pair of its own on the residual skip, none on the conv -> Add edge.
std::unique_ptr<Model> quantLensBlock() {
    ModelBuilder b;
    b.input("x", DataType::Float, {4, 16, 8, 8});
    conv(b, test::addQdq(b, "x"), int8Weight(b, "w1"), "c1", "conv1");
    b.node("Relu", {"c1"}, {"r1"}, "relu1");
    conv(b, test::addQdq(b, "r1"), int8Weight(b, "w2"), "c2", "conv2");
    b.node("Identity", {"x"}, {"skip"}, "skip_identity");
    b.node("Add", {"c2", test::addQdq(b, "skip")}, {"sum"}, "add");
    b.node("Relu", {"sum"}, {"y"}, "relu2");
    b.output("y");
    return b.load();
}

TEST(QuantizedModelsTest, PytorchQuantizationUnquantizedIdentityIsWarned) {
    for (bool qdqAfterBn : {true, false}) {
        const auto f = test::findingsOf(*pytorchQuantizationBlock(qdqAfterBn), kResidualRule);
        ASSERT_EQ(f.size(), 1u) << "qdqAfterBn " << qdqAfterBn;
        EXPECT_EQ(f[0].severity, Severity::Warning);
        EXPECT_EQ(f[0].nodeName, "add");
        EXPECT_NE(f[0].message.find("skip input 'x'"), std::string::npos) << f[0].message;
        EXPECT_NE(f[0].message.find("'conv2'"), std::string::npos) << f[0].message;
        EXPECT_NE(f[0].message.find("Q/DQ on the edge"), std::string::npos) << f[0].message;
    }
}

TEST(QuantizedModelsTest, PytorchQuantizationQdqAfterBatchNormBlocksTheReluFusion) {
    const auto f = test::findingsOf(*pytorchQuantizationBlock(true), kBnRule);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Warning);
    EXPECT_EQ(f[0].nodeName, "relu1");
    EXPECT_NE(f[0].message.find("'bn1'"), std::string::npos) << f[0].message;
}

TEST(QuantizedModelsTest, PytorchQuantizationQdqBeforeBatchNormBlocksTheBnFusion) {
    const auto f = test::findingsOf(*pytorchQuantizationBlock(false), kBnRule);
    ASSERT_EQ(f.size(), 2u);
    EXPECT_EQ(f[0].nodeName, "bn1");
    EXPECT_NE(f[0].message.find("'conv1'"), std::string::npos) << f[0].message;
    EXPECT_EQ(f[1].nodeName, "bn2");
    EXPECT_NE(f[1].message.find("'conv2'"), std::string::npos) << f[1].message;
}

TEST(QuantizedModelsTest, ModelOptResidualBlocksAreQuiet) {
    for (bool downsample : {false, true}) {
        const auto model = modelOptBlock(downsample);
        for (const char* rule : {kResidualRule, kBnRule, kConcatRule})
            for (const Finding& f : test::findingsOf(*model, rule))
                ADD_FAILURE() << "downsample " << downsample << ": " << f.ruleId << " on " << f.nodeName << ": "
                              << f.message;
    }
}

TEST(QuantizedModelsTest, OnnxRuntimeQdqOnTheConvAddEdgeIsReported) {
    for (bool uint8 : {false, true}) {
        const auto f = test::findingsOf(*onnxRuntimeBlock(uint8), kResidualRule);
        ASSERT_EQ(f.size(), 1u) << "uint8 " << uint8;
        EXPECT_EQ(f[0].severity, Severity::Info);
        EXPECT_EQ(f[0].nodeName, "add");
        EXPECT_NE(f[0].message.find("edge from conv 'conv2'"), std::string::npos) << f[0].message;
    }
}

TEST(QuantizedModelsTest, OnnxRuntimeQdqAroundBatchNormIsWarnedTwice) {
    for (bool uint8 : {false, true}) {
        const auto f = test::findingsOf(*onnxRuntimeBlock(uint8), kBnRule);
        ASSERT_EQ(f.size(), 2u) << "uint8 " << uint8;
        EXPECT_EQ(f[0].nodeName, "bn1");
        EXPECT_NE(f[0].message.find("'conv1'"), std::string::npos) << f[0].message;
        EXPECT_EQ(f[1].nodeName, "relu1");
        EXPECT_NE(f[1].message.find("'bn1'"), std::string::npos) << f[1].message;
    }
}

TEST(QuantizedModelsTest, QuantLensExportIsQuiet) {
    const auto model = quantLensBlock();
    for (const char* rule : {kResidualRule, kBnRule, kConcatRule})
        for (const Finding& f : test::findingsOf(*model, rule))
            ADD_FAILURE() << f.ruleId << " on " << f.nodeName << ": " << f.message;
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
