#include <gtest/gtest.h>

#include <cmath>

#include "core/exec/kernels/elementwise_util.h"
#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql {
namespace {

using test::expectNear;
using test::floats;
using test::NodeBuilder;
using test::NodeSpec;
using test::runOne;

const std::vector<float> kIn = {-2.0f, -0.5f, 0.0f, 0.5f, 3.0f};

Tensor activate(const std::string& op, std::function<void(NodeBuilder&)> attrs = {}) {
    auto y = runOne(NodeSpec{op, {{"x", floats({5}, kIn)}}, {}, 17, std::move(attrs)});
    EXPECT_TRUE(y.isOk()) << y.status().message();
    return y.isOk() ? y.value() : Tensor();
}

std::vector<float> reference(float (*f)(float)) {
    std::vector<float> out;
    for (float v : kIn) out.push_back(f(v));
    return out;
}

TEST(ActivationKernelTest, DefaultAttributes) {
    expectNear(activate("Elu"), reference([](float v) { return v >= 0 ? v : std::exp(v) - 1; }));
    expectNear(activate("Celu"), reference([](float v) { return v >= 0 ? v : std::exp(v) - 1; }));
    expectNear(activate("LeakyRelu"), reference([](float v) { return v >= 0 ? v : 0.01f * v; }));
    expectNear(activate("HardSigmoid"), reference([](float v) { return std::clamp(0.2f * v + 0.5f, 0.0f, 1.0f); }));
    expectNear(activate("HardSwish"), reference([](float v) { return v * std::clamp(v / 6.0f + 0.5f, 0.0f, 1.0f); }));
    expectNear(activate("Selu"), reference([](float v) {
                   return 1.0507009873554805f * (v > 0 ? v : 1.6732632423543772f * (std::exp(v) - 1));
               }));
    expectNear(activate("ThresholdedRelu"), reference([](float v) { return v > 1.0f ? v : 0.0f; }));
}

TEST(ActivationKernelTest, AlphaBetaGammaAttributes) {
    expectNear(activate("Elu", [](NodeBuilder& n) { n.f("alpha", 2.0f); }),
               reference([](float v) { return v >= 0 ? v : 2 * (std::exp(v) - 1); }));
    expectNear(activate("Celu", [](NodeBuilder& n) { n.f("alpha", 2.0f); }),
               reference([](float v) { return std::max(0.0f, v) + std::min(0.0f, 2 * (std::exp(v / 2) - 1)); }));
    expectNear(activate("LeakyRelu", [](NodeBuilder& n) { n.f("alpha", 0.1f); }),
               reference([](float v) { return v >= 0 ? v : 0.1f * v; }));
    expectNear(activate("HardSigmoid", [](NodeBuilder& n) { n.f("alpha", 0.5f).f("beta", 0.25f); }),
               reference([](float v) { return std::clamp(0.5f * v + 0.25f, 0.0f, 1.0f); }));
    expectNear(activate("Selu", [](NodeBuilder& n) { n.f("alpha", 2.0f).f("gamma", 3.0f); }),
               reference([](float v) { return 3 * (v > 0 ? v : 2 * (std::exp(v) - 1)); }));
    expectNear(activate("ThresholdedRelu", [](NodeBuilder& n) { n.f("alpha", 0.2f); }),
               reference([](float v) { return v > 0.2f ? v : 0.0f; }));
}

TEST(ActivationKernelTest, Float16InputKeepsItsType) {
    auto y = runOne(NodeSpec{"LeakyRelu", {{"x", fromFloatTensor(floats({2}, {-1, 1}), DataType::Float16)}}});
    ASSERT_TRUE(y.isOk());
    EXPECT_EQ(y.value().dtype(), DataType::Float16);
    expectNear(y.value(), {-0.01f, 1.0f}, 1e-3f);
}

TEST(ActivationKernelTest, IntegerInputIsRejected) {
    auto y = runOne(NodeSpec{"Elu", {{"x", test::int64s({1}, {1})}}, {}, 17});
    EXPECT_FALSE(y.isOk());
}

}  // namespace
}  // namespace ql

namespace ql {
namespace {

using test::expectNear;
using test::floats;
using test::NodeBuilder;
using test::NodeSpec;
using test::runOne;

Tensor activateAt(const std::string& op, int64_t opset, std::function<void(NodeBuilder&)> attrs = {},
                  DataType dtype = DataType::Float) {
    Tensor x = floats({3}, {-1.0f, 0.0f, 1.0f});
    if (dtype != DataType::Float) x = fromFloatTensor(x, dtype);
    auto y = runOne(NodeSpec{op, {{"x", x}}, {}, opset, std::move(attrs)});
    EXPECT_TRUE(y.isOk()) << y.status().message();
    return y.isOk() ? y.value() : Tensor();
}

TEST(ActivationKernelTest, GeluSpecExamplesExactAndTanh) {
    // The ONNX spec's examples (opset 20).
    expectNear(activateAt("Gelu", 20), {-0.15865529f, 0.0f, 0.84134471f});
    expectNear(activateAt("Gelu", 20, [](NodeBuilder& n) { n.s("approximate", "tanh"); }),
               {-0.15880801f, 0.0f, 0.84119199f});
    expectNear(activateAt("Gelu", 22, {}, DataType::Float16), {-0.15865529f, 0.0f, 0.84134471f}, 2e-3f);
}

TEST(ActivationKernelTest, GeluRefusesAnUnknownApproximation) {
    auto y =
        runOne(NodeSpec{"Gelu", {{"x", floats({1}, {1})}}, {}, 20, [](NodeBuilder& n) { n.s("approximate", "fast"); }});
    ASSERT_FALSE(y);
    EXPECT_NE(y.status().message().find("approximate must be \"none\" or \"tanh\""), std::string::npos);
}

TEST(ActivationKernelTest, MishIsXTimesTanhOfSoftplus) {
    expectNear(activateAt("Mish", 18), {-0.30340144f, 0.0f, 0.86509836f});
    auto big = runOne(NodeSpec{"Mish", {{"x", floats({2}, {100.0f, -100.0f})}}, {}, 18});
    ASSERT_TRUE(big) << big.status().message();
    expectNear(*big, {100.0f, 0.0f});  // no overflow in softplus
}

TEST(ActivationKernelTest, ExperimentalScaledTanhAndParametricSoftplus) {
    expectNear(activateAt("ScaledTanh", 9, [](NodeBuilder& n) { n.f("alpha", 2.0f).f("beta", 0.5f); }),
               {2.0f * std::tanh(-0.5f), 0.0f, 2.0f * std::tanh(0.5f)});
    expectNear(activateAt("ParametricSoftplus", 9, [](NodeBuilder& n) { n.f("alpha", 2.0f).f("beta", 3.0f); }),
               {2.0f * std::log1p(std::exp(-3.0f)), 2.0f * std::log(2.0f), 2.0f * std::log1p(std::exp(3.0f))});
}

}  // namespace
}  // namespace ql
