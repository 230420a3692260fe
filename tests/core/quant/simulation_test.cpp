#include "core/quant/simulation.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <map>
#include <random>

#include "core/common/half.h"
#include "core/exec/kernels/quantize_math.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::ModelBuilder;

const std::vector<float> kConvW = test::seededFloats(4 * 3 * 3 * 3, 11);
const std::vector<float> kConvB = {0.1f, -0.2f, 0.3f, 0.05f};
const std::vector<float> kGemmW = test::seededFloats(5 * 144, 12, -0.2f, 0.2f);
const std::vector<float> kGemmB = {0.5f, -0.5f, 0.25f, 0.0f, 1.0f};
const std::vector<float> kMatMulW = test::seededFloats(5 * 3, 13);
// Activation ranges as a calibration would give them; some are below the data's extremes so values saturate.
constexpr float kXAmax = 0.8f, kFAmax = 1.5f, kGAmax = 2.0f;

RunOptions intercepted(NodeInterceptor* interceptor) {
    RunOptions options;
    options.interceptor = interceptor;
    return options;
}

CalibrationResult calibration(const std::map<std::string, float>& amax) {
    CalibrationResult c;
    for (const auto& [name, a] : amax) {
        TensorRange r;
        r.name = name;
        r.amax = a;
        c.activations.push_back(r);
    }
    return c;
}

// max |w| per channel of a weight seen as [channels, rest] (axis 0) or [rest, channels] (last axis): the
// scales the export computes from the weight itself.
std::vector<float> channelAmax(const std::vector<float>& w, size_t channels, bool lastAxis) {
    std::vector<float> amax(channels, 0.0f);
    const size_t inner = w.size() / channels;
    for (size_t i = 0; i < w.size(); ++i) {
        const size_t c = lastAxis ? i % channels : i / inner;
        amax[c] = std::max(amax[c], std::abs(w[i]));
    }
    return amax;
}

// Adds x -> QuantizeLinear -> DequantizeLinear -> `out` with scale amax / 127, per tensor or along `axis`.
void addQdq(ModelBuilder& b, const std::string& x, const std::string& out, const std::vector<float>& amax,
            int64_t axis = 1) {
    const bool perChannel = amax.size() > 1;
    const std::vector<int64_t> dims =
        perChannel ? std::vector<int64_t>{static_cast<int64_t>(amax.size())} : std::vector<int64_t>{};
    std::vector<double> scales;
    for (float a : amax) scales.push_back(a / 127.0f);
    b.initializer(out + "_scale", DataType::Float, dims, scales);
    b.initializer(out + "_zp", DataType::Int8, dims, std::vector<double>(amax.size(), 0.0));
    b.node("QuantizeLinear", {x, out + "_scale", out + "_zp"}, {out + "_q"}).i("axis", axis);
    b.node("DequantizeLinear", {out + "_q", out + "_scale", out + "_zp"}, {out}).i("axis", axis);
}

Tensor run(const Graph& graph, NodeInterceptor* interceptor, const std::vector<int64_t>& shape) {
    auto executor = Executor::create(graph);
    EXPECT_TRUE(executor.isOk()) << executor.status().message();
    const auto count = static_cast<size_t>(shapeElementCount(shape));
    const Tensor x = Tensor::fromVector(DataType::Float, shape, test::seededFloats(count, 5));
    auto out = (*executor)->run({{"x", x}}, intercepted(interceptor));
    EXPECT_TRUE(out.isOk()) << out.status().message();
    return out.isOk() ? out->front().second : Tensor();
}

PrecisionPlan int8Plan(const Graph& graph, const std::vector<std::string>& nodes) {
    PrecisionPlan plan(graph, Precision::Fp32);
    for (const auto& name : nodes) plan.setRequested(*graph.findNode(name), Precision::Int8);
    return plan;
}

// Float summation order: a convolution fused with the Add after it (oneDNN's sum post-op) may take another kernel
// than the two run apart, which on AVX2 (not on AVX-512) changes the last bits of O(1) sums (about 1e-7). A wrong
// quantization moves outputs by a quantization step, 0.0024 here at the least.
constexpr float kSummationSlack = 1e-5f;

// Simulates `plan` on `fp32` and expects the output of the hand-built Q/DQ model `qdq` (and not FP32), up to the
// summation order.
void expectSimulationEqualsQdq(const ModelBuilder& fp32Builder, const ModelBuilder& qdqBuilder,
                               const std::vector<std::string>& int8Nodes, const std::map<std::string, float>& amax,
                               const std::vector<int64_t>& shape, const QdqOptions& options = {}) {
    const auto fp32 = fp32Builder.load();
    const auto qdq = qdqBuilder.load();
    const PrecisionPlan plan = int8Plan(fp32->graph(), int8Nodes);
    auto sim = QuantSimulator::create(fp32->graph(), plan, calibration(amax), options);
    ASSERT_TRUE(sim.isOk()) << sim.status().message();
    const Tensor simulated = run(fp32->graph(), sim->get(), shape);
    const Tensor reference = run(qdq->graph(), nullptr, shape);
    const Tensor plain = run(fp32->graph(), nullptr, shape);
    ASSERT_EQ(simulated.shape(), reference.shape());
    bool differsFromFp32 = false;
    for (int64_t i = 0; i < reference.elementCount(); ++i) {
        EXPECT_NEAR(simulated.data<float>()[i], reference.data<float>()[i], kSummationSlack) << "element " << i;
        differsFromFp32 |= std::abs(simulated.data<float>()[i] - plain.data<float>()[i]) > kSummationSlack;
    }
    EXPECT_TRUE(differsFromFp32);
}

// x [2,3,6,6] -> Conv -> c -> Relu -> r -> Flatten -> f [2,144] -> Gemm (transB) -> g -> MatMul -> y [2,3].
// With `qdq`, the Q/DQ nodes ONNX would use to run Conv, Gemm and MatMul in INT8.
ModelBuilder chainModel(bool qdq) {
    ModelBuilder b;
    b.input("x", DataType::Float, {2, 3, 6, 6});
    b.initializer("w", {4, 3, 3, 3}, kConvW);
    b.initializer("b", {4}, kConvB);
    b.initializer("wg", {5, 144}, kGemmW);
    b.initializer("bg", {5}, kGemmB);
    b.initializer("wm", {5, 3}, kMatMulW);
    if (qdq) {
        addQdq(b, "x", "xq", {kXAmax});
        addQdq(b, "w", "wq", channelAmax(kConvW, 4, false), 0);
        addQdq(b, "f", "fq", {kFAmax});
        addQdq(b, "wg", "wgq", channelAmax(kGemmW, 5, false), 0);
        addQdq(b, "g", "gq", {kGAmax});
        addQdq(b, "wm", "wmq", channelAmax(kMatMulW, 3, true), 1);
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

const std::map<std::string, float> kChainAmax = {{"x", kXAmax}, {"f", kFAmax}, {"g", kGAmax}, {"c", 1.0f}};

TEST(QuantSimulatorTest, Int8PlanMatchesQdqModelBitForBit) {
    expectSimulationEqualsQdq(chainModel(false), chainModel(true), {"conv", "gemm", "matmul"}, kChainAmax,
                              {2, 3, 6, 6});
}

TEST(QuantSimulatorTest, MissingActivationRangeNamesTheTensor) {
    const auto fp32 = chainModel(false).load();
    const PrecisionPlan plan = int8Plan(fp32->graph(), {"conv", "gemm", "matmul"});
    auto amax = kChainAmax;
    amax.erase("g");
    auto sim = QuantSimulator::create(fp32->graph(), plan, calibration(amax));
    ASSERT_FALSE(sim.isOk());
    EXPECT_NE(sim.status().message().find("'g'"), std::string::npos) << sim.status().message();
}

// x [1,3,6,6] -> Conv (3 -> 3 channels) -> c; Add(c, x) -> y. TensorRT fuses the Add into the conv: only
// the skip input x is quantized for the Add, never c.
ModelBuilder residualModel(bool qdq) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 3, 6, 6});
    const std::vector<float> w = test::seededFloats(3 * 3 * 3 * 3, 21);
    b.initializer("w", {3, 3, 3, 3}, w);
    if (qdq) {
        addQdq(b, "x", "xq", {kXAmax});
        addQdq(b, "w", "wq", channelAmax(w, 3, false), 0);
        addQdq(b, "x", "xs", {kXAmax});
    }
    b.node("Conv", {qdq ? "xq" : "x", qdq ? "wq" : "w"}, {"c"}, "conv").ints("pads", {1, 1, 1, 1});
    b.node("Add", {"c", qdq ? "xs" : "x"}, {"y"}, "add");
    b.output("y");
    return b;
}

TEST(QuantSimulatorTest, ResidualAddQuantizesTheSkipInputOnly) {
    expectSimulationEqualsQdq(residualModel(false), residualModel(true), {"conv", "add"},
                              {{"x", kXAmax}, {"c", 0.3f}, {"y", 2.0f}}, {1, 3, 6, 6});
}

// x -> Conv a, Conv b -> Concat -> k -> Conv -> y: an INT8 Concat gives its inputs and its output (read by
// the last conv) one scale, the largest amax of the group.
ModelBuilder concatModel(bool qdq) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 2, 4, 4});
    const std::vector<float> wa = test::seededFloats(2 * 2, 31), wb = test::seededFloats(2 * 2, 32),
                             wk = test::seededFloats(3 * 4, 33);
    b.initializer("wa", {2, 2, 1, 1}, wa);
    b.initializer("wb", {2, 2, 1, 1}, wb);
    b.initializer("wk", {3, 4, 1, 1}, wk);
    if (qdq) {
        addQdq(b, "x", "xq", {kXAmax});
        addQdq(b, "wa", "waq", channelAmax(wa, 2, false), 0);
        addQdq(b, "wb", "wbq", channelAmax(wb, 2, false), 0);
        addQdq(b, "a", "aq", {1.2f});
        addQdq(b, "bb", "bq", {1.2f});
        addQdq(b, "k", "kq", {1.2f});
        addQdq(b, "wk", "wkq", channelAmax(wk, 3, false), 0);
    }
    const auto name = [qdq](const std::string& n) { return qdq ? n + "q" : n; };
    b.node("Conv", {name("x"), name("wa")}, {"a"}, "conv_a");
    b.node("Conv", {name("x"), name("wb")}, {"bb"}, "conv_b");
    b.node("Concat", {qdq ? "aq" : "a", qdq ? "bq" : "bb"}, {"k"}, "concat").i("axis", 1);
    b.node("Conv", {name("k"), name("wk")}, {"y"}, "conv_k");
    b.output("y");
    return b;
}

TEST(QuantSimulatorTest, Int8ConcatSharesTheLargestScale) {
    expectSimulationEqualsQdq(concatModel(false), concatModel(true), {"conv_a", "conv_b", "concat", "conv_k"},
                              {{"x", kXAmax}, {"a", 0.4f}, {"bb", 1.2f}, {"k", 0.9f}}, {1, 2, 4, 4});
}

// x -> Conv whose weight comes through two Identity nodes: still a constant weight, quantized per channel.
ModelBuilder identityWeightModel(bool qdq) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 3, 6, 6});
    const std::vector<float> w = test::seededFloats(4 * 3 * 3 * 3, 41);
    b.initializer("w", {4, 3, 3, 3}, w);
    if (qdq) {
        addQdq(b, "x", "xq", {kXAmax});
        addQdq(b, "w", "wq", channelAmax(w, 4, false), 0);
        b.node("Conv", {"xq", "wq"}, {"y"}, "conv");
    } else {
        b.node("Identity", {"w"}, {"w1"}, "id1");
        b.node("Identity", {"w1"}, {"w2"}, "id2");
        b.node("Conv", {"x", "w2"}, {"y"}, "conv");
    }
    b.output("y");
    return b;
}

TEST(QuantSimulatorTest, WeightBehindIdentityIsQuantizedPerChannel) {
    // "w2" has a (wide) range as an activation: a per-tensor activation quantization would use it.
    expectSimulationEqualsQdq(identityWeightModel(false), identityWeightModel(true), {"conv"},
                              {{"x", kXAmax}, {"w1", 5.0f}, {"w2", 5.0f}}, {1, 3, 6, 6});
}

// x -> Conv -> c -> AveragePool -> y: an INT8 pooling layer reads its input through Q/DQ.
ModelBuilder poolingModel(bool qdq) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 3, 6, 6});
    const std::vector<float> w = test::seededFloats(2 * 3, 51);
    b.initializer("w", {2, 3, 1, 1}, w);
    if (qdq) {
        addQdq(b, "x", "xq", {kXAmax});
        addQdq(b, "w", "wq", channelAmax(w, 2, false), 0);
        addQdq(b, "c", "cq", {0.5f});
    }
    b.node("Conv", {qdq ? "xq" : "x", qdq ? "wq" : "w"}, {"c"}, "conv");
    b.node("AveragePool", {qdq ? "cq" : "c"}, {"y"}, "pool").ints("kernel_shape", {2, 2});
    b.output("y");
    return b;
}

TEST(QuantSimulatorTest, Int8PoolingInputIsQuantized) {
    expectSimulationEqualsQdq(poolingModel(false), poolingModel(true), {"conv", "pool"}, {{"x", kXAmax}, {"c", 0.5f}},
                              {1, 3, 6, 6});
}

// x [1,2,3,3] -> ConvTranspose (weight [C_in 2, C_out 3, 2, 2]) -> y: per tensor by default, as `quantize`.
ModelBuilder deconvModel(bool qdq, bool perChannel) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 2, 3, 3});
    const std::vector<float> w = test::seededFloats(2 * 3 * 2 * 2, 61);
    b.initializer("w", {2, 3, 2, 2}, w);
    if (qdq) {
        addQdq(b, "x", "xq", {kXAmax});
        // Axis 1 of [2, 3, 4]: per channel c of 3, over the 2 x 4 others.
        std::vector<float> amax(3, 0.0f);
        for (size_t i = 0; i < w.size(); ++i) amax[(i / 4) % 3] = std::max(amax[(i / 4) % 3], std::abs(w[i]));
        if (!perChannel) amax = {*std::max_element(amax.begin(), amax.end())};
        addQdq(b, "w", "wq", amax, 1);
    }
    b.node("ConvTranspose", {qdq ? "xq" : "x", qdq ? "wq" : "w"}, {"y"}, "deconv");
    b.output("y");
    return b;
}

TEST(QuantSimulatorTest, ConvTransposeWeightFollowsTheExportOptions) {
    expectSimulationEqualsQdq(deconvModel(false, false), deconvModel(true, false), {"deconv"}, {{"x", kXAmax}},
                              {1, 2, 3, 3});
    expectSimulationEqualsQdq(deconvModel(false, true), deconvModel(true, true), {"deconv"}, {{"x", kXAmax}},
                              {1, 2, 3, 3}, {.perChannelConvTranspose = true, .tensorRtMajor = 10});
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
    const Tensor y = fakeQuantize(x, {1.0f});
    const std::vector<float> expected = {0, 2, 2, -2, 127, -128};
    for (size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(y.data<float>()[i], expected[i]) << i;
}

TEST(FakeQuantizeTest, PerChannelUsesEachChannelsScale) {
    // [2 outer, 2 channels, 1]: channel 0 scale 1, channel 1 scale 0.5.
    const Tensor x = Tensor::fromVector(DataType::Float, {2, 2, 1}, std::vector<float>{1.4f, 1.4f, -0.6f, -0.6f});
    const Tensor y = fakeQuantize(x, {1.0f, 0.5f}, 1);
    const std::vector<float> expected = {1.0f, 1.5f, -1.0f, -0.5f};
    for (size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(y.data<float>()[i], expected[i]) << i;
}

}  // namespace
}  // namespace ql

namespace ql {
namespace {

// fakeQuantizeInt8's vectorisable form equals QuantizeLinear's arithmetic bit for bit: ties to even, saturation,
// the sign of a level rounding to zero, infinities.
TEST(FakeQuantizeInt8, EqualsTheQuantizeLinearArithmeticBitForBit) {
    std::vector<float> values = {
        0.0f,  -0.0f, 1e-30f, -1e-30f, std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
        1e30f, -1e30f};
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> wide(-20.0f, 20.0f);
    for (int i = 0; i < 20000; ++i) values.push_back(wide(rng));
    for (float scale : {0.1f, 0.0173f, 1.0f / 127.0f, 3.5f}) {
        std::vector<float> all = values;
        for (int k = -140; k <= 140; ++k) all.push_back((static_cast<float>(k) + 0.5f) * scale);  // ties
        for (float x : all) {
            const float expected = quantizeLevel(x, scale, 0.0f, -128.0f, 127.0f) * scale;
            const float got = fakeQuantizeInt8(x, scale);
            EXPECT_EQ(std::bit_cast<uint32_t>(got), std::bit_cast<uint32_t>(expected)) << x << " at scale " << scale;
        }
    }
}

}  // namespace
}  // namespace ql
