#include "core/quant/simulation.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/common/half.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::ModelBuilder;

const std::vector<float> kConvW = test::seededFloats(4 * 3 * 3 * 3, 11);
const std::vector<float> kConvB = {0.1f, -0.2f, 0.3f, 0.05f};
const std::vector<float> kGemmW = test::seededFloats(5 * 144, 12, -0.2f, 0.2f);
const std::vector<float> kGemmB = {0.5f, -0.5f, 0.25f, 0.0f, 1.0f};
const std::vector<float> kMatMulW = test::seededFloats(5 * 3, 13);
// Ranges as a calibration would give them; some are below the data's extremes so that values saturate.
const std::vector<float> kConvWAmax = {0.9f, 0.5f, 1.0f, 0.7f};
const std::vector<float> kGemmWAmax = {0.2f, 0.1f, 0.15f, 0.2f, 0.05f};
constexpr float kXAmax = 0.8f, kFAmax = 1.5f, kGAmax = 2.0f;

RunOptions intercepted(NodeInterceptor* interceptor) {
    RunOptions options;
    options.interceptor = interceptor;
    return options;
}

TensorRange range(const std::string& name, float amax) {
    TensorRange r;
    r.name = name;
    r.amax = amax;
    return r;
}

float scaleOf(float amax) {
    return amax / 127.0f;
}

// max |w| per column of a [rows, cols] matrix: per-channel amax of a MatMul weight (last axis).
std::vector<float> columnAmax(const std::vector<float>& w, size_t cols) {
    std::vector<float> amax(cols, 0.0f);
    for (size_t i = 0; i < w.size(); ++i) amax[i % cols] = std::max(amax[i % cols], std::abs(w[i]));
    return amax;
}

std::vector<double> scales(const std::vector<float>& amax) {
    std::vector<double> s;
    for (float a : amax) s.push_back(scaleOf(a));
    return s;
}

// Adds x -> QuantizeLinear -> DequantizeLinear -> `out`, per tensor or per channel along `axis`.
void addQdq(ModelBuilder& b, const std::string& x, const std::string& out, const std::vector<float>& amax,
            int64_t axis = 1) {
    const bool perChannel = amax.size() > 1;
    const std::vector<int64_t> dims =
        perChannel ? std::vector<int64_t>{static_cast<int64_t>(amax.size())} : std::vector<int64_t>{};
    b.initializer(x + "_scale", DataType::Float, dims, scales(amax));
    b.initializer(x + "_zp", DataType::Int8, dims, std::vector<double>(amax.size(), 0.0));
    b.node("QuantizeLinear", {x, x + "_scale", x + "_zp"}, {x + "_q"}).i("axis", axis);
    b.node("DequantizeLinear", {x + "_q", x + "_scale", x + "_zp"}, {out}).i("axis", axis);
}

// x [2,3,6,6] -> Conv -> c -> Relu -> r -> Flatten -> f [2,144] -> Gemm (transB) -> g -> MatMul -> y [2,3].
// With `qdq`, the Q/DQ nodes ONNX would use to run Conv, Gemm and MatMul in INT8.
ModelBuilder model(bool qdq) {
    ModelBuilder b;
    b.input("x", DataType::Float, {2, 3, 6, 6});
    b.initializer("w", {4, 3, 3, 3}, kConvW);
    b.initializer("b", {4}, kConvB);
    b.initializer("wg", {5, 144}, kGemmW);
    b.initializer("bg", {5}, kGemmB);
    b.initializer("wm", {5, 3}, kMatMulW);
    if (qdq) {
        addQdq(b, "x", "xq", {kXAmax});
        addQdq(b, "w", "wq", kConvWAmax, 0);
        addQdq(b, "f", "fq", {kFAmax});
        addQdq(b, "wg", "wgq", kGemmWAmax, 0);
        addQdq(b, "g", "gq", {kGAmax});
        addQdq(b, "wm", "wmq", columnAmax(kMatMulW, 3), 1);
    }
    const auto name = [qdq](const std::string& n) { return qdq ? n + "q" : n; };
    b.node("Conv", {name("x"), name("w"), "b"}, {"c"}, "conv").ints("pads", {1, 1, 1, 1});
    b.node("Relu", {"c"}, {"r"}, "relu");
    b.node("Flatten", {"r"}, {"f"}, "flatten");
    b.node("Gemm", {name("f"), name("wg"), "bg"}, {"g"}, "gemm").i("transB", 1);
    b.node("MatMul", {name("g"), name("wm")}, {"y"}, "matmul");
    b.output("y");
    return b;
}

Tensor run(const Graph& graph, NodeInterceptor* interceptor) {
    auto executor = Executor::create(graph);
    EXPECT_TRUE(executor.isOk()) << executor.status().message();
    const Tensor x = Tensor::fromVector(DataType::Float, {2, 3, 6, 6}, test::seededFloats(216, 5));
    auto out = (*executor)->run({{"x", x}}, intercepted(interceptor));
    EXPECT_TRUE(out.isOk()) << out.status().message();
    return out.isOk() ? out->front().second : Tensor();
}

PrecisionPlan int8Plan(const Graph& graph) {
    PrecisionPlan plan(graph, Precision::Fp32);
    for (const char* name : {"conv", "gemm", "matmul"}) plan.setRequested(*graph.findNode(name), Precision::Int8);
    return plan;
}

CalibrationResult calibration(const Graph& graph) {
    CalibrationResult c;
    c.activations = {range("x", kXAmax), range("f", kFAmax), range("g", kGAmax)};
    // The MatMul weight is left out: the simulator computes its per-channel amax from the weight itself.
    c.weights = {{"w", *graph.findNode("conv"), 0, kConvWAmax}, {"wg", *graph.findNode("gemm"), 0, kGemmWAmax}};
    return c;
}

TEST(QuantSimulatorTest, Int8PlanMatchesQdqModelBitForBit) {
    const auto fp32 = model(false).load();
    const auto qdq = model(true).load();
    const PrecisionPlan plan = int8Plan(fp32->graph());
    auto sim = QuantSimulator::create(fp32->graph(), plan, calibration(fp32->graph()));
    ASSERT_TRUE(sim.isOk()) << sim.status().message();
    const Tensor simulated = run(fp32->graph(), sim->get());
    const Tensor reference = run(qdq->graph(), nullptr);
    const Tensor plain = run(fp32->graph(), nullptr);
    ASSERT_EQ(simulated.shape(), reference.shape());
    bool differsFromFp32 = false;
    for (int64_t i = 0; i < reference.elementCount(); ++i) {
        EXPECT_EQ(simulated.data<float>()[i], reference.data<float>()[i]) << "element " << i;
        differsFromFp32 |= simulated.data<float>()[i] != plain.data<float>()[i];
    }
    EXPECT_TRUE(differsFromFp32);
}

TEST(QuantSimulatorTest, MissingActivationRangeNamesTheTensor) {
    const auto fp32 = model(false).load();
    const PrecisionPlan plan = int8Plan(fp32->graph());
    CalibrationResult c = calibration(fp32->graph());
    c.activations.pop_back();  // no "g"
    auto sim = QuantSimulator::create(fp32->graph(), plan, c);
    ASSERT_FALSE(sim.isOk());
    EXPECT_NE(sim.status().message().find("'g'"), std::string::npos) << sim.status().message();
}

TEST(QuantSimulatorTest, Fp16NodeRoundsInputsAndOutputToHalf) {
    ModelBuilder b;
    b.input("x", DataType::Float, {4});
    b.initializer("k", {4}, {0.1f, 1.0001f, 3.14159f, 1000.3f});
    b.node("Add", {"x", "k"}, {"y"}, "add");
    b.output("y");
    const auto m = b.load();
    PrecisionPlan plan(m->graph(), Precision::Fp16);
    auto sim = QuantSimulator::create(m->graph(), plan, {});
    ASSERT_TRUE(sim.isOk()) << sim.status().message();
    const std::vector<float> x = {0.2f, 2.0003f, -1.7777f, 0.33333f};
    const std::vector<float> k = {0.1f, 1.0001f, 3.14159f, 1000.3f};
    auto executor = Executor::create(m->graph());
    ASSERT_TRUE(executor.isOk());
    auto out = (*executor)->run({{"x", Tensor::fromVector(DataType::Float, {4}, x)}}, intercepted(sim->get()));
    ASSERT_TRUE(out.isOk()) << out.status().message();
    const auto half = [](float v) { return halfToFloat(floatToHalf(v)); };
    for (size_t i = 0; i < 4; ++i) {
        EXPECT_EQ(out->front().second.data<float>()[i], half(half(x[i]) + half(k[i]))) << i;
        EXPECT_NE(out->front().second.data<float>()[i], x[i] + k[i]) << i;
    }
}

TEST(FakeQuantizeTest, RoundsHalfToEvenAndSaturates) {
    // scale 1: 0.5 -> 0, 1.5 -> 2, 2.5 -> 2, -2.5 -> -2, 200 -> 127, -200 -> -128
    const Tensor x = Tensor::fromVector(DataType::Float, {6}, std::vector<float>{0.5f, 1.5f, 2.5f, -2.5f, 200, -200});
    const Tensor y = fakeQuantizePerTensor(x, 127.0f);
    const std::vector<float> expected = {0, 2, 2, -2, 127, -128};
    for (size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(y.data<float>()[i], expected[i]) << i;
}

}  // namespace
}  // namespace ql
