// exposeQuantizationPoints: every activation QuantizeLinear's codes (and its float input, unless a graph input)
// become graph outputs, described with their scale; weights are left alone; the executor returns the codes.
#include "core/export/quantized_outputs.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "core/exec/executor.h"
#include "core/exec/kernels/quantize_math.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::ModelBuilder;

// x -> Q/DQ -> Relu -> Q/DQ -> Conv (weight behind its own Q/DQ pair) -> y
ModelBuilder qdqModel() {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 2, 4, 4});
    b.initializer("w", {3, 2, 1, 1}, test::seededFloats(6));
    b.initializer("sx", {}, {0.02f});
    b.initializer("sr", {}, {0.01f});
    b.initializer("sw", {3}, {0.01f, 0.02f, 0.03f});
    b.initializer("z", DataType::Int8, {}, {0.0f});
    b.initializer("zw", DataType::Int8, {3}, {0.0f, 0.0f, 0.0f});
    b.node("QuantizeLinear", {"x", "sx", "z"}, {"xq"}, "x_q");
    b.node("DequantizeLinear", {"xq", "sx", "z"}, {"xd"}, "x_dq");
    b.node("Relu", {"xd"}, {"r"}, "relu");
    b.node("QuantizeLinear", {"r", "sr", "z"}, {"rq"}, "r_q");
    b.node("DequantizeLinear", {"rq", "sr", "z"}, {"rd"}, "r_dq");
    b.node("QuantizeLinear", {"w", "sw", "zw"}, {"wq"}, "w_q").i("axis", 0);
    b.node("DequantizeLinear", {"wq", "sw", "zw"}, {"wd"}, "w_dq").i("axis", 0);
    b.node("Conv", {"rd", "wd"}, {"y"}, "conv");
    b.output("y");
    return b;
}

TEST(QuantizedOutputsTest, ActivationCodesAndInputsBecomeOutputsWeightsDoNot) {
    ModelBuilder b = qdqModel();
    auto points = exposeQuantizationPoints(b.graph());
    ASSERT_TRUE(points) << points.status().message();
    ASSERT_EQ(points->size(), 2u);
    EXPECT_EQ((*points)[0].node, "x_q");
    EXPECT_FALSE((*points)[0].inputExposed);  // x is a graph input
    EXPECT_EQ((*points)[1].input, "r");
    EXPECT_EQ((*points)[1].output, "rq");
    EXPECT_TRUE((*points)[1].inputExposed);
    EXPECT_EQ((*points)[1].scale, std::vector<float>{0.01f});
    EXPECT_EQ((*points)[1].zeroPoint, std::vector<float>{0.0f});
    std::vector<std::pair<std::string, int32_t>> outputs;
    for (const auto& output : b.graph().output())
        outputs.emplace_back(output.name(), output.type().tensor_type().elem_type());
    const std::vector<std::pair<std::string, int32_t>> expected = {{"y", onnx::TensorProto::FLOAT},
                                                                   {"xq", onnx::TensorProto::INT8},
                                                                   {"rq", onnx::TensorProto::INT8},
                                                                   {"r", onnx::TensorProto::FLOAT}};
    EXPECT_EQ(outputs, expected);
    const auto json = quantizationPointsJson(*points);
    EXPECT_EQ(json["format"], "quantlens-quantization-points");
    EXPECT_EQ(json["points"][1]["input"], "r");
}

TEST(QuantizedOutputsTest, TheExecutorReturnsTheCodesOfItsOwnQuantizeLinearInput) {
    ModelBuilder b = qdqModel();
    ASSERT_TRUE(exposeQuantizationPoints(b.graph()));
    auto model = b.load();
    auto exec = Executor::create(model->graph());
    ASSERT_TRUE(exec) << exec.status().message();
    Tensor x(DataType::Float, {1, 2, 4, 4});
    const auto values = test::seededFloats(32, 9, -3.0f, 3.0f);
    std::copy(values.begin(), values.end(), x.data<float>());
    auto out = (*exec)->run({{"x", x}});
    ASSERT_TRUE(out) << out.status().message();
    const Tensor* r = nullptr;
    const Tensor* rq = nullptr;
    for (const auto& [name, tensor] : *out) {
        if (name == "r") r = &tensor;
        if (name == "rq") rq = &tensor;
    }
    ASSERT_TRUE(r && rq);
    ASSERT_EQ(rq->dtype(), DataType::Int8);
    const auto in = r->toFloats();
    const auto codes = rq->toFloats();
    ASSERT_EQ(in.size(), codes.size());
    for (size_t i = 0; i < in.size(); ++i) EXPECT_EQ(codes[i], quantizeLevel(in[i], 0.01f, 0.0f, -128.0f, 127.0f));
}

// The per-layer copy reads the codes it is given and recomputes each point from them.
TEST(QuantizedOutputsTest, PerLayerCopyComputesEachPointFromTheGivenCodes) {
    ModelBuilder b = qdqModel();
    auto points = exposeQuantizationPoints(b.graph());
    ASSERT_TRUE(points);
    cutAtQuantizationPoints(b.graph(), *points);
    EXPECT_EQ((*points)[1].localOutput, "rq_local");
    EXPECT_EQ(quantizationPointsJson(*points)["points"][1]["local_output"], "rq_local");
    auto model = b.load();
    auto exec = Executor::create(model->graph());
    ASSERT_TRUE(exec) << exec.status().message();
    Tensor x(DataType::Float, {1, 2, 4, 4});
    std::fill_n(x.data<float>(), 32, -1.0f);  // quantized locally to -50; the given codes say otherwise
    Tensor xq(DataType::Int8, {1, 2, 4, 4}), rq(DataType::Int8, {1, 2, 4, 4});
    std::fill_n(xq.data<int8_t>(), 32, int8_t{5});   // relu(5 * 0.02) = 0.1 -> 10 codes of 0.01
    std::fill_n(rq.data<int8_t>(), 32, int8_t{-7});  // what the Conv reads
    auto out = (*exec)->run({{"x", x}, {"xq", xq}, {"rq", rq}});
    ASSERT_TRUE(out) << out.status().message();
    std::map<std::string, std::vector<float>> values;
    for (const auto& [name, tensor] : *out) values[name] = tensor.toFloats();
    EXPECT_EQ(values["xq_local"], std::vector<float>(32, -50.0f));
    EXPECT_EQ(values["rq_local"], std::vector<float>(32, 10.0f));
    EXPECT_EQ(values["r"], std::vector<float>(32, 5.0f * 0.02f));
}

TEST(QuantizedOutputsTest, AScaleThatIsNotAnInitializerIsAnErrorNamingTheNode) {
    ModelBuilder b;
    b.input("x", DataType::Float, {4});
    b.input("s", DataType::Float, {});
    b.node("QuantizeLinear", {"x", "s"}, {"q"}, "dynamic_q");
    b.output("q", DataType::UInt8);
    auto points = exposeQuantizationPoints(b.graph());
    ASSERT_FALSE(points);
    EXPECT_NE(points.status().message().find("dynamic_q"), std::string::npos) << points.status().message();
}

}  // namespace
}  // namespace ql
