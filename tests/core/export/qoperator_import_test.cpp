// ONNX Runtime's operator form back to float: dynamic ConvInteger / MatMulInteger and a static QLinearConv chain are
// imported, run by the executor, and compared with the quantized model (within the quantization error) and with a
// float reference built from the dequantized weights (exactly); what is not recognized stays and is listed.
#include "core/export/qoperator_import.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "core/exec/executor.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::ModelBuilder;
using test::seededFloats;

std::vector<double> levels(size_t count, int lo, int hi, uint32_t seed) {
    std::vector<double> values;
    for (float f : seededFloats(count, seed, static_cast<float>(lo), static_cast<float>(hi) + 0.999f))
        values.push_back(std::floor(f));
    return values;
}

// (level - zero[c]) * scale[c], channel c = (i / inner) % scales.size().
std::vector<float> dequantized(const std::vector<double>& q, const std::vector<float>& scale,
                               const std::vector<float>& zero, size_t inner) {
    std::vector<float> values(q.size());
    for (size_t i = 0; i < q.size(); ++i) {
        const size_t c = (i / inner) % scale.size();
        values[i] = (static_cast<float>(q[i]) - zero[c]) * scale[c];
    }
    return values;
}

std::vector<float> runOne(const Model& model, const std::string& input, const Tensor& x, const std::string& output) {
    auto exec = Executor::create(model.graph());
    EXPECT_TRUE(exec) << exec.status().message();
    if (!exec) return {};
    auto out = (*exec)->run({{input, x}});
    EXPECT_TRUE(out) << out.status().message();
    if (!out) return {};
    for (const auto& [name, tensor] : *out)
        if (name == output)
            return std::vector<float>(tensor.data<float>(), tensor.data<float>() + tensor.elementCount());
    ADD_FAILURE() << "no output " << output;
    return {};
}

std::multiset<std::string> opTypes(const Model& model) {
    std::multiset<std::string> ops;
    for (const Node& node : model.graph().nodes()) ops.insert(node.opType);
    return ops;
}

// Quantized vs float import: within `relative` of the largest magnitude or `absolute` (quantization steps of the
// output); import vs reference: equal.
void expectOutputs(const std::vector<float>& quantized, const std::vector<float>& imported,
                   const std::vector<float>& reference, float relative, float absolute = 0.0f) {
    ASSERT_EQ(imported.size(), reference.size());
    ASSERT_EQ(imported.size(), quantized.size());
    float magnitude = 0, worst = 0;
    for (size_t i = 0; i < imported.size(); ++i) {
        EXPECT_EQ(imported[i], reference[i]) << "at " << i;
        magnitude = std::max(magnitude, std::fabs(reference[i]));
        worst = std::max(worst, std::fabs(quantized[i] - imported[i]));
    }
    EXPECT_GT(magnitude, 0.0f);
    EXPECT_LE(worst, std::max(relative * magnitude, absolute));
}

TEST(QOperatorImport, DynamicConvWithReshapedBiasBecomesConv) {
    const std::vector<double> wq = levels(4 * 3 * 9, 0, 255, 11);
    const std::vector<float> wScale = {0.004f}, wZero = {128};
    const std::vector<float> bias = {0.1f, -0.2f, 0.3f, 0.05f};
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 3, 6, 6});
    b.initializer("w_quantized", DataType::UInt8, {4, 3, 3, 3}, wq);
    b.initializer("w_zero_point", DataType::UInt8, {}, {128});
    b.initializer("w_scale", {}, wScale);
    b.initializer("conv.bias", {4}, bias);
    b.initializer("bias_shape", DataType::Int64, {4}, {1, -1, 1, 1});
    b.node("DynamicQuantizeLinear", {"x"}, {"xq", "xs", "xz"});
    b.node("ConvInteger", {"xq", "w_quantized", "xz", "w_zero_point"}, {"acc"}, "conv_quant")
        .ints("pads", {1, 1, 1, 1});
    b.node("Cast", {"acc"}, {"accf"}).i("to", 1);
    b.node("Mul", {"xs", "w_scale"}, {"scales"});
    b.node("Mul", {"accf", "scales"}, {"scaled"});
    b.node("Reshape", {"conv.bias", "bias_shape"}, {"bias_r"});
    b.node("Add", {"scaled", "bias_r"}, {"y"});
    b.output("y");
    auto model = b.load();
    ASSERT_TRUE(hasQOperatorNodes(model->graph()));
    auto imported = importQOperatorModel(*model);
    ASSERT_TRUE(imported) << imported.status().message();
    const Model& floatModel = *imported->imported.model;
    EXPECT_EQ(opTypes(floatModel), std::multiset<std::string>{"Conv"});
    EXPECT_EQ(imported->dynamicLayers, 1u);
    EXPECT_EQ(imported->int8Nodes, std::vector<std::string>{"conv"});
    EXPECT_TRUE(imported->unrecognized.empty());
    EXPECT_TRUE(imported->imported.scales.activations.empty());  // dynamic: none carried
    ASSERT_EQ(imported->imported.scales.weights.size(), 1u);
    EXPECT_EQ(imported->imported.scales.weights[0].amax.size(), 1u);

    ModelBuilder r;
    r.input("x", DataType::Float, {1, 3, 6, 6});
    r.initializer("w", {4, 3, 3, 3}, dequantized(wq, wScale, wZero, 27));
    r.initializer("b", {4}, bias);
    r.node("Conv", {"x", "w", "b"}, {"y"}).ints("pads", {1, 1, 1, 1});
    r.output("y");
    const Tensor x = Tensor::fromVector(DataType::Float, {1, 3, 6, 6}, seededFloats(108, 5));
    expectOutputs(runOne(*model, "x", x, "y"), runOne(floatModel, "x", x, "y"), runOne(*r.load(), "x", x, "y"), 0.02f);
}

TEST(QOperatorImport, DynamicMatMulPerColumnBecomesMatMul) {
    const std::vector<double> wq = levels(8 * 5, -127, 127, 3);
    const std::vector<float> wScale = {0.01f, 0.02f, 0.015f, 0.005f, 0.03f}, wZero(5, 0.0f);
    ModelBuilder b;
    b.input("x", DataType::Float, {2, 8});
    b.initializer("w_quantized", DataType::Int8, {8, 5}, wq);
    b.initializer("w_zero_point", DataType::Int8, {5}, {0, 0, 0, 0, 0});
    b.initializer("w_scale", {5}, wScale);
    b.node("DynamicQuantizeLinear", {"x"}, {"xq", "xs", "xz"});
    b.node("MatMulInteger", {"xq", "w_quantized", "xz", "w_zero_point"}, {"acc"}, "mm_quant");
    b.node("Cast", {"acc"}, {"accf"}).i("to", 1);
    b.node("Mul", {"w_scale", "xs"}, {"scales"});
    b.node("Mul", {"scales", "accf"}, {"y"});
    b.output("y");
    auto model = b.load();
    auto imported = importQOperatorModel(*model);
    ASSERT_TRUE(imported) << imported.status().message();
    EXPECT_EQ(opTypes(*imported->imported.model), std::multiset<std::string>{"MatMul"});
    ModelBuilder r;
    r.input("x", DataType::Float, {2, 8});
    r.initializer("w", {8, 5}, dequantized(wq, wScale, wZero, 1));
    r.node("MatMul", {"x", "w"}, {"y"});
    r.output("y");
    const Tensor x = Tensor::fromVector(DataType::Float, {2, 8}, seededFloats(16, 9));
    expectOutputs(runOne(*model, "x", x, "y"), runOne(*imported->imported.model, "x", x, "y"),
                  runOne(*r.load(), "x", x, "y"), 0.02f);
}

TEST(QOperatorImport, StaticQLinearConvChainBecomesFloatWithRanges) {
    const std::vector<double> w1 = levels(3 * 2 * 9, -127, 127, 21), w2 = levels(2 * 3 * 9, -127, 127, 22);
    const std::vector<float> s1 = {0.002f, 0.003f, 0.0025f}, s2 = {0.002f, 0.0015f};  // outputs within y ranges
    const std::vector<double> b1 = {40, -25, 10}, b2 = {-12, 30};
    const float xs = 2.0f / 255, y1s = 0.05f, y2s = 0.1f;
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 2, 6, 6});
    b.initializer("xs", {}, {xs});
    b.initializer("xz", DataType::UInt8, {}, {128});
    b.initializer("w1", DataType::Int8, {3, 2, 3, 3}, w1);
    b.initializer("w1s", {3}, s1);
    b.initializer("w1z", DataType::Int8, {3}, {0, 0, 0});
    b.initializer("y1s", {}, {y1s});
    b.initializer("y1z", DataType::UInt8, {}, {120});
    b.initializer("b1", DataType::Int32, {3}, b1);
    b.initializer("w2", DataType::Int8, {2, 3, 3, 3}, w2);
    b.initializer("w2s", {2}, s2);
    b.initializer("w2z", DataType::Int8, {2}, {0, 0});
    b.initializer("y2s", {}, {y2s});
    b.initializer("y2z", DataType::UInt8, {}, {130});
    b.initializer("b2", DataType::Int32, {2}, b2);
    b.node("QuantizeLinear", {"x", "xs", "xz"}, {"xq"});
    b.node("QLinearConv", {"xq", "xs", "xz", "w1", "w1s", "w1z", "y1s", "y1z", "b1"}, {"y1"}, "conv1")
        .ints("pads", {1, 1, 1, 1});
    b.node("MaxPool", {"y1"}, {"p"}).ints("kernel_shape", {2, 2});
    b.node("QLinearConv", {"p", "y1s", "y1z", "w2", "w2s", "w2z", "y2s", "y2z", "b2"}, {"y2"}, "conv2")
        .ints("pads", {1, 1, 1, 1});
    b.node("DequantizeLinear", {"y2", "y2s", "y2z"}, {"y"});
    b.output("y");
    auto model = b.load();
    auto imported = importQOperatorModel(*model);
    ASSERT_TRUE(imported) << imported.status().message();
    const Model& floatModel = *imported->imported.model;
    // The graph output keeps its name through an Identity.
    EXPECT_EQ(opTypes(floatModel), (std::multiset<std::string>{"Conv", "MaxPool", "Conv", "Identity"}));
    EXPECT_EQ(imported->staticNodes, 2u);
    for (const auto& u : imported->unrecognized) ADD_FAILURE() << u.node << " (" << u.opType << "): " << u.reason;
    std::map<std::string, float> amax;
    for (const auto& range : imported->imported.scales.activations) amax[range.name] = range.amax;
    EXPECT_FLOAT_EQ(amax["x"], 128 * xs);  // uint8 zero point 128: [-128 * s, 127 * s]
    EXPECT_FLOAT_EQ(amax["y1"], 135 * y1s);
    EXPECT_FLOAT_EQ(amax["p"], 135 * y1s);
    EXPECT_FLOAT_EQ(amax["y2"], 130 * y2s);

    auto floatBias = [&](const std::vector<double>& bias, const std::vector<float>& ws, float inScale) {
        std::vector<float> values;
        for (size_t c = 0; c < bias.size(); ++c) values.push_back(static_cast<float>(bias[c]) * inScale * ws[c]);
        return values;
    };
    ModelBuilder r;
    r.input("x", DataType::Float, {1, 2, 6, 6});
    r.initializer("w1", {3, 2, 3, 3}, dequantized(w1, s1, {0, 0, 0}, 18));
    r.initializer("b1", {3}, floatBias(b1, s1, xs));
    r.initializer("w2", {2, 3, 3, 3}, dequantized(w2, s2, {0, 0}, 27));
    r.initializer("b2", {2}, floatBias(b2, s2, y1s));
    r.node("Conv", {"x", "w1", "b1"}, {"y1"}).ints("pads", {1, 1, 1, 1});
    r.node("MaxPool", {"y1"}, {"p"}).ints("kernel_shape", {2, 2});
    r.node("Conv", {"p", "w2", "b2"}, {"y"}).ints("pads", {1, 1, 1, 1});
    r.output("y");
    const Tensor x = Tensor::fromVector(DataType::Float, {1, 2, 6, 6}, seededFloats(72, 13));
    // Two steps of the output's scale: its own rounding plus conv1's carried through conv2.
    expectOutputs(runOne(*model, "x", x, "y"), runOne(floatModel, "x", x, "y"), runOne(*r.load(), "x", x, "y"), 0.0f,
                  2 * y2s);
}

// ONNX's QLinearMatMul, then ONNX Runtime's com.microsoft QLinearAdd (a residual) and QLinearSigmoid, as its static
// quantizer writes a transformer block's epilogue: float MatMul, Add and Sigmoid with every tensor's range kept.
TEST(QOperatorImport, StaticQLinearMatMulAndMicrosoftOpsBecomeFloat) {
    const std::vector<double> w = levels(8 * 8, -127, 127, 31);
    const float xs = 2.0f / 255, ws = 0.003f, y1s = 0.05f, y2s = 0.05f, y3s = 1.0f / 255;
    ModelBuilder b;
    b.opset("com.microsoft", 1);
    b.input("x", DataType::Float, {1, 4, 8});
    b.initializer("xs", {}, {xs});
    b.initializer("xz", DataType::UInt8, {}, {128});
    b.initializer("w", DataType::Int8, {8, 8}, w);
    b.initializer("ws", {}, {ws});
    b.initializer("wz", DataType::Int8, {}, {0});
    b.initializer("y1s", {}, {y1s});
    b.initializer("y1z", DataType::UInt8, {}, {128});
    b.initializer("y2s", {}, {y2s});
    b.initializer("y2z", DataType::UInt8, {}, {128});
    b.initializer("y3s", {}, {y3s});
    b.initializer("y3z", DataType::UInt8, {}, {0});
    b.node("QuantizeLinear", {"x", "xs", "xz"}, {"xq"});
    b.node("QLinearMatMul", {"xq", "xs", "xz", "w", "ws", "wz", "y1s", "y1z"}, {"y1"}, "matmul");
    b.node("QLinearAdd", {"y1", "y1s", "y1z", "xq", "xs", "xz", "y2s", "y2z"}, {"y2"}, "residual")
        .domain("com.microsoft");
    b.node("QLinearSigmoid", {"y2", "y2s", "y2z", "y3s", "y3z"}, {"y3"}, "gate").domain("com.microsoft");
    b.node("DequantizeLinear", {"y3", "y3s", "y3z"}, {"y"});
    b.output("y");
    auto model = b.load();
    auto imported = importQOperatorModel(*model);
    ASSERT_TRUE(imported) << imported.status().message();
    const Model& floatModel = *imported->imported.model;
    EXPECT_EQ(opTypes(floatModel), (std::multiset<std::string>{"MatMul", "Add", "Sigmoid", "Identity"}));
    EXPECT_EQ(imported->staticNodes, 3u);
    for (const auto& u : imported->unrecognized) ADD_FAILURE() << u.node << " (" << u.opType << "): " << u.reason;
    std::map<std::string, float> amax;
    for (const auto& range : imported->imported.scales.activations) amax[range.name] = range.amax;
    EXPECT_FLOAT_EQ(amax["y1"], 128 * y1s);
    EXPECT_FLOAT_EQ(amax["y2"], 128 * y2s);
    EXPECT_FLOAT_EQ(amax["y3"], 255 * y3s);

    ModelBuilder r;
    r.input("x", DataType::Float, {1, 4, 8});
    r.initializer("w", {8, 8}, dequantized(w, {ws}, {0}, 1));
    r.node("MatMul", {"x", "w"}, {"y1"});
    r.node("Add", {"y1", "x"}, {"y2"});
    r.node("Sigmoid", {"y2"}, {"y"});
    r.output("y");
    const Tensor x = Tensor::fromVector(DataType::Float, {1, 4, 8}, seededFloats(32, 17));
    // The MatMul's and the Add's roundings (a step of 0.05 each), through Sigmoid's slope of at most 1/4, plus the
    // output's own step.
    expectOutputs(runOne(*model, "x", x, "y"), runOne(floatModel, "x", x, "y"), runOne(*r.load(), "x", x, "y"), 0.0f,
                  5 * y3s);
}

TEST(QOperatorImport, UnrecognizedPatternsStayAndAreListed) {
    ModelBuilder b;
    b.input("xq", DataType::UInt8, {1, 1, 4, 4});
    b.initializer("w", DataType::UInt8, {1, 1, 1, 1}, {3});
    b.node("ConvInteger", {"xq", "w"}, {"acc"}, "lonely");
    b.output("acc");
    auto model = b.load();
    auto imported = importQOperatorModel(*model);
    ASSERT_TRUE(imported) << imported.status().message();
    EXPECT_EQ(opTypes(*imported->imported.model), std::multiset<std::string>{"ConvInteger"});
    ASSERT_EQ(imported->unrecognized.size(), 1u);
    EXPECT_EQ(imported->unrecognized[0].node, "lonely");
    EXPECT_NE(imported->unrecognized[0].reason.find("DynamicQuantizeLinear"), std::string::npos);
    EXPECT_NE(qoperatorImportSummary(*imported).find("1 nodes not imported"), std::string::npos);
}

}  // namespace
}  // namespace ql
