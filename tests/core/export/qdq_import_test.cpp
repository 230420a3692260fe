// Reading scales back out of Q/DQ models: the FP32 model comes back, scales are exact, and export -> import
// -> export gives bit-identical scales and weights.
#include "core/export/qdq_import.h"

#include <gtest/gtest.h>

#include <bit>
#include <map>
#include <random>

#include "core/export/qdq_export.h"
#include "core/model/tensor_data.h"
#include "core/quant/default_placement.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::loadProto;

using test::ModelBuilder;
using test::seededFloats;

// Every non-initializer value gets a different amax (random bits, so scale rounding is exercised).
CalibrationResult randomCalibration(const Graph& graph, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> amax(0.01f, 40.0f);
    CalibrationResult result;
    for (const Value& value : graph.values()) {
        if (value.initializer >= 0) continue;
        TensorRange range;
        range.name = value.name;
        range.amax = amax(rng);
        result.activations.push_back(range);
    }
    return result;
}

// What a Q/DQ model quantizes, per DequantizeLinear: (consumer, input slot) -> scale bits, axis, int8 levels.
struct QuantizedInput {
    std::vector<uint32_t> scaleBits;
    int64_t axis = 0;
    std::string levels;  // raw int8 bytes of a quantized weight, empty for activations
    bool operator==(const QuantizedInput&) const = default;
};

std::map<std::string, QuantizedInput> quantizedInputs(const onnx::ModelProto& model) {
    std::map<std::string, const onnx::TensorProto*> inits;
    for (const auto& init : model.graph().initializer()) inits[init.name()] = &init;
    std::map<std::string, QuantizedInput> dq;
    for (const auto& node : model.graph().node()) {
        if (node.op_type() != "DequantizeLinear") continue;
        QuantizedInput q;
        auto scales = tensorAsFloats(*inits.at(node.input(1)));
        EXPECT_TRUE(scales) << node.name();
        if (scales)
            for (float s : *scales) q.scaleBits.push_back(std::bit_cast<uint32_t>(s));
        q.axis = node.attribute(0).i();
        if (auto it = inits.find(node.input(0)); it != inits.end()) q.levels = it->second->raw_data();
        dq[node.output(0)] = q;
    }
    std::map<std::string, QuantizedInput> byConsumer;
    for (const auto& node : model.graph().node())
        for (int i = 0; i < node.input_size(); ++i)
            if (auto it = dq.find(node.input(i)); it != dq.end())
                byConsumer[node.name() + "#" + std::to_string(i)] = it->second;
    return byConsumer;
}

// Exports `model` with the default plan, imports the scales back, exports again; both exports must agree.
void expectRoundTrip(const Model& model, const QdqOptions& options = {}) {
    auto first = exportQdq(model, defaultPrecisionPlan(model.graph()), randomCalibration(model.graph(), 11), options);
    ASSERT_TRUE(first) << first.status().message();
    auto exported = loadProto(first->proto, "first.onnx");
    ASSERT_TRUE(exported);
    auto imported = dequantizeQdqModel(*exported);
    ASSERT_TRUE(imported) << imported.status().message();
    EXPECT_FALSE(hasQdqNodes(imported->model->graph()));
    const Model& fp32 = *imported->model;
    auto second = exportQdq(fp32, defaultPrecisionPlan(fp32.graph()), imported->scales, options);
    ASSERT_TRUE(second) << second.status().message();
    const auto a = quantizedInputs(first->proto), b = quantizedInputs(second->proto);
    EXPECT_GT(a.size(), 0u);
    EXPECT_EQ(a.size(), b.size());
    for (const auto& [input, q] : a) {
        ASSERT_TRUE(b.count(input)) << input;
        EXPECT_EQ(q.scaleBits, b.at(input).scaleBits) << input;
        EXPECT_EQ(q.axis, b.at(input).axis) << input;
        EXPECT_EQ(q.levels, b.at(input).levels) << input;
    }
}

std::unique_ptr<Model> weightedLayersModel() {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 4, 6, 6});
    b.initializer("cw", {8, 4, 3, 3}, seededFloats(288, 1));
    b.initializer("cb", {8}, seededFloats(8, 2));
    b.node("Conv", {"x", "cw", "cb"}, {"c"}, "conv").ints("pads", {1, 1, 1, 1});
    b.node("Relu", {"c"}, {"r"}, "relu");
    b.initializer("dw", {8, 4, 2, 2}, seededFloats(128, 3));
    b.node("ConvTranspose", {"r", "dw"}, {"d"}, "deconv").ints("strides", {2, 2});
    b.initializer("shape", DataType::Int64, {2}, {1, -1});
    b.node("Reshape", {"d", "shape"}, {"flat"}, "reshape");
    b.initializer("gw", {16, 576}, seededFloats(16 * 576, 4));
    b.node("Gemm", {"flat", "gw"}, {"g"}, "fc").i("transB", 1);
    b.initializer("mw", {16, 5}, seededFloats(80, 5));
    b.node("MatMul", {"g", "mw"}, {"y"}, "mm");
    b.output("y");
    return b.load();
}

TEST(QdqImportTest, RoundTripKeepsEveryScaleOfConvGemmMatMulConvTranspose) {
    auto model = weightedLayersModel();
    expectRoundTrip(*model);
}

TEST(QdqImportTest, RoundTripKeepsScalesWithPerChannelConvTransposeAndFloatWeights) {
    auto model = weightedLayersModel();
    expectRoundTrip(*model, {.perChannelConvTranspose = true, .tensorRtMajor = 10, .int8Weights = false});
}

TEST(QdqImportTest, RoundTripKeepsEveryScaleOfTheSampleModel) {
    auto model = Model::load(std::string(QL_SOURCE_DIR) + "/resources/samples/digits_cnn.onnx");
    ASSERT_TRUE(model) << model.status().message();
    expectRoundTrip(**model);
}

TEST(QdqImportTest, AmaxForScaleGivesTheScaleBackExactly) {
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> amax(1e-6f, 1e4f);
    for (int i = 0; i < 100000; ++i) {
        const float scale = amax(rng) / 127.0f;
        EXPECT_EQ(amaxForScale(scale) / 127.0f, scale) << scale;
    }
}

// An ONNX Runtime style Q/DQ model: uint8 activations with a zero point, an int8 per-channel weight.
std::unique_ptr<Model> asymmetricModel(bool constantScale = true) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 2});
    b.initializer("x_scale", {}, {0.1f});
    b.initializer("x_zero_point", DataType::UInt8, {}, {10});
    if (constantScale) {
        b.node("QuantizeLinear", {"x", "x_scale", "x_zero_point"}, {"x_q"}, "xq");
        b.node("DequantizeLinear", {"x_q", "x_scale", "x_zero_point"}, {"x_dq"}, "xdq");
    } else {
        b.node("Abs", {"x"}, {"s"}, "abs");
        b.node("QuantizeLinear", {"x", "x_scale", "x_zero_point"}, {"x_q"}, "xq");
        b.node("DequantizeLinear", {"x_q", "s", "x_zero_point"}, {"x_dq"}, "xdq");
    }
    b.initializer("w_quantized", DataType::Int8, {2, 3}, {127, -5, 0, 64, -127, 3});
    b.initializer("w_scale", {3}, {0.5f, 0.25f, 2.0f});
    b.initializer("w_zero_point", DataType::Int8, {3}, {0, 0, 0});
    b.node("DequantizeLinear", {"w_quantized", "w_scale", "w_zero_point"}, {"w_dq"}, "wdq").i("axis", 1);
    b.node("MatMul", {"x_dq", "w_dq"}, {"y"}, "mm");
    b.output("y");
    return b.load();
}

TEST(QdqImportTest, AsymmetricActivationAndPerChannelWeightAreReadBack) {
    auto imported = dequantizeQdqModel(*asymmetricModel());
    ASSERT_TRUE(imported) << imported.status().message();
    const Graph& graph = imported->model->graph();
    ASSERT_EQ(graph.nodes().size(), 1u);
    EXPECT_EQ(graph.nodes()[0].opType, "MatMul");
    EXPECT_EQ(graph.value(graph.nodes()[0].inputs[0]).name, "x");
    EXPECT_EQ(graph.value(graph.nodes()[0].inputs[1]).name, "w");
    ASSERT_EQ(imported->scales.activations.size(), 1u);
    const auto& x = imported->scales.activations[0];
    EXPECT_EQ(x.name, "x");
    EXPECT_FLOAT_EQ(x.min, -1.0f);  // (0 - 10) * 0.1
    EXPECT_FLOAT_EQ(x.max, 24.5f);  // (255 - 10) * 0.1
    EXPECT_FLOAT_EQ(x.amax, 24.5f);
    ASSERT_EQ(imported->scales.weights.size(), 1u);
    EXPECT_EQ(imported->scales.weights[0].name, "w");
    EXPECT_EQ(imported->scales.weights[0].axis, 1);
    EXPECT_EQ(graph.node(imported->scales.weights[0].layer).name, "mm");
    ASSERT_EQ(imported->scales.weights[0].amax.size(), 3u);
    EXPECT_EQ(imported->scales.weights[0].amax[1] / 127.0f, 0.25f);
    auto w = tensorAsFloats(*graph.initializerOf(graph.nodes()[0].inputs[1])->proto);
    ASSERT_TRUE(w);
    const std::vector<float> expected = {amaxForScale(0.5f), -1.25f, 0.0f, 32.0f, -amaxForScale(0.25f), 6.0f};
    EXPECT_EQ(*w, expected);
}

TEST(QdqImportTest, NonConstantScaleIsAnErrorNamingTheNode) {
    auto imported = dequantizeQdqModel(*asymmetricModel(false));
    ASSERT_FALSE(imported);
    EXPECT_NE(imported.status().message().find("'xdq'"), std::string::npos) << imported.status().message();
    EXPECT_NE(imported.status().message().find("scale is not a constant"), std::string::npos);
}

}  // namespace
}  // namespace ql
