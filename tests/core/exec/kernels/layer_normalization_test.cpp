#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql {
namespace {

using test::expectNear;
using test::floats;
using test::NodeBuilder;
using test::NodeSpec;
using test::runNode;

TEST(LayerNormalizationKernelTest, LastAxisWithScaleBiasAndStatistics) {
    auto y = runNode(
        NodeSpec{"LayerNormalization",
                 {{"x", floats({2, 2}, {1, 3, -1, -1})}, {"s", floats({2}, {2, 1})}, {"b", floats({2}, {0, 1})}},
                 {DataType::Float, DataType::Float, DataType::Float},
                 17,
                 [](NodeBuilder& n) { n.f("epsilon", 0.0f); }});
    ASSERT_TRUE(y.isOk()) << y.status().message();
    expectNear(y.value()[0], {-2, 2, NAN, NAN});  // a constant row has zero variance
    EXPECT_EQ(y.value()[1].shape(), (Shape{2, 1}));
    expectNear(y.value()[1], {2, -1});
    expectNear(y.value()[2], {1, INFINITY});
}

// Normalizing over the last two axes of a random tensor against a naive loop; optional B omitted.
TEST(LayerNormalizationKernelTest, RandomAxis1MatchesNaive) {
    std::mt19937 rng(7767517);
    std::uniform_real_distribution<float> dist(-2, 2);
    std::vector<float> x(3 * 5 * 7), scale(5 * 7);
    for (float& v : x) v = dist(rng);
    for (float& v : scale) v = dist(rng);
    auto y = runNode(NodeSpec{
        "LayerNormalization", {{"x", floats({3, 5, 7}, x)}, {"s", floats({5, 7}, scale)}}, {}, 17, [](NodeBuilder& n) {
            n.i("axis", 1);
        }});
    ASSERT_TRUE(y.isOk()) << y.status().message();
    std::vector<float> expected;
    for (size_t r = 0; r < 3; ++r) {
        double mean = 0, var = 0;
        for (size_t i = 0; i < 35; ++i) mean += x[r * 35 + i] / 35.0;
        for (size_t i = 0; i < 35; ++i) var += (x[r * 35 + i] - mean) * (x[r * 35 + i] - mean) / 35.0;
        for (size_t i = 0; i < 35; ++i)
            expected.push_back(static_cast<float>((x[r * 35 + i] - mean) / std::sqrt(var + 1e-5) * scale[i]));
    }
    expectNear(y.value()[0], expected, 1e-5f);
}

TEST(LayerNormalizationKernelTest, ScaleThatDoesNotBroadcastFails) {
    auto y =
        runNode(NodeSpec{"LayerNormalization", {{"x", floats({2, 2}, {1, 2, 3, 4})}, {"s", floats({3}, {1, 1, 1})}}});
    EXPECT_FALSE(y.isOk());
}

}  // namespace
}  // namespace ql
