#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql {
namespace {

using test::expectNear;
using test::floats;
using test::NodeSpec;
using test::runOne;
using test::valuesOf;

TEST(PowKernelTest, FloatBaseWithBroadcastExponent) {
    auto y = runOne(NodeSpec{"Pow", {{"x", floats({2, 2}, {1, 2, 3, 4})}, {"e", floats({2}, {2, 0.5f})}}});
    ASSERT_TRUE(y.isOk()) << y.status().message();
    expectNear(y.value(), {1, std::sqrt(2.0f), 9, 2});
}

TEST(PowKernelTest, MixedTypes) {
    auto a = runOne(NodeSpec{"Pow", {{"x", floats({3}, {1, 2, 3})}, {"e", test::int64s({3}, {4, 5, 6})}}});
    ASSERT_TRUE(a.isOk()) << a.status().message();
    expectNear(a.value(), {1, 32, 729});
    const Tensor base = test::makeTensor<int32_t>(DataType::Int32, {3}, {1, 2, 3});
    auto b = runOne(NodeSpec{"Pow", {{"x", base}, {"e", floats({3}, {4, 5, 6})}}});
    ASSERT_TRUE(b.isOk()) << b.status().message();
    EXPECT_EQ(valuesOf<int32_t>(b.value()), (std::vector<int32_t>{1, 32, 729}));
}

// The scalar-exponent fast paths (2, 1, 0.5) against std::pow on a random tensor.
TEST(PowKernelTest, ScalarExponentFastPathsMatchStdPow) {
    Tensor x(DataType::Float, {7, 13});
    std::mt19937 rng(7767517);
    std::uniform_real_distribution<float> dist(0, 5);
    for (float& v : x.span<float>()) v = dist(rng);
    for (float p : {2.0f, 1.0f, 0.5f, 3.0f}) {
        auto y = runOne(NodeSpec{"Pow", {{"x", x}, {"e", floats({}, {p})}}});
        ASSERT_TRUE(y.isOk());
        std::vector<float> expected;
        for (float v : x.span<float>()) expected.push_back(std::pow(v, p));
        expectNear(y.value(), expected, 1e-6f);
    }
}

}  // namespace
}  // namespace ql
