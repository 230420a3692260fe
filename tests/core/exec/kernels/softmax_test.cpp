#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "core/common/half.h"
#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql {
namespace {

using test::expectNear;
using test::floats;
using test::NodeBuilder;
using test::NodeSpec;
using test::runOne;
using test::valuesOf;

// Naive softmax of `x` seen as [outer, n, inner] along the middle axis.
std::vector<float> naiveSoftmax(const std::vector<float>& x, int64_t outer, int64_t n, int64_t inner, bool log) {
    std::vector<float> y(x.size());
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) {
            double m = -1e30, sum = 0;
            for (int64_t k = 0; k < n; ++k) m = std::max<double>(m, x[static_cast<size_t>((o * n + k) * inner + i)]);
            for (int64_t k = 0; k < n; ++k) sum += std::exp(x[static_cast<size_t>((o * n + k) * inner + i)] - m);
            for (int64_t k = 0; k < n; ++k) {
                const size_t at = static_cast<size_t>((o * n + k) * inner + i);
                y[at] = static_cast<float>(log ? x[at] - m - std::log(sum) : std::exp(x[at] - m) / sum);
            }
        }
    return y;
}

TEST(SoftmaxKernelTest, LastAxisByDefault) {
    auto y = runOne(NodeSpec{"Softmax", {{"x", floats({2, 2}, {0, 0, 1000, 0})}}});
    ASSERT_TRUE(y.isOk()) << y.status().message();
    expectNear(y.value(), {0.5f, 0.5f, 1, 0});
}

// A strongly typed model's float16 island: the result is float16 (rounded), not the float it was computed in.
TEST(SoftmaxKernelTest, Float16InputGivesFloat16Output) {
    const std::vector<float> x = {0.1f, 2.0f, -1.0f, 0.7f, 3.0f, 0.0f};
    std::vector<uint16_t> bits;
    for (float v : x) bits.push_back(floatToHalf(v));
    auto y = runOne(NodeSpec{"Softmax", {{"x", test::makeTensor(DataType::Float16, {2, 3}, bits)}}});
    ASSERT_TRUE(y.isOk()) << y.status().message();
    ASSERT_EQ(y->dtype(), DataType::Float16);
    std::vector<float> rounded;
    for (uint16_t b : bits) rounded.push_back(halfToFloat(b));
    const auto expected = naiveSoftmax(rounded, 2, 3, 1, false);
    const auto* out = y->data<uint16_t>();
    for (size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(out[i], floatToHalf(expected[i])) << i;
}

TEST(SoftmaxKernelTest, Opset11FlattensFromTheAxis) {
    const std::vector<float> x = {1, 2, 3, 4, 5, 6, 7, 8};
    auto y = runOne(NodeSpec{"Softmax", {{"x", floats({2, 2, 2}, x)}}, {}, 11});  // default axis 1: rows of 4
    ASSERT_TRUE(y.isOk()) << y.status().message();
    expectNear(y.value(), naiveSoftmax(x, 2, 4, 1, false));
}

TEST(SoftmaxKernelTest, MiddleAxisFromOpset13MatchesNaive) {
    std::mt19937 rng(7767517);
    std::uniform_real_distribution<float> dist(-3, 3);
    std::vector<float> x(3 * 5 * 7);
    for (float& v : x) v = dist(rng);
    for (const std::string op : {"Softmax", "LogSoftmax"}) {
        auto y = runOne(NodeSpec{op, {{"x", floats({3, 5, 7}, x)}}, {}, 13, [](NodeBuilder& n) { n.i("axis", 1); }});
        ASSERT_TRUE(y.isOk()) << y.status().message();
        expectNear(y.value(), naiveSoftmax(x, 3, 5, 7, op == "LogSoftmax"));
    }
}

TEST(SoftmaxKernelTest, HardmaxMarksTheFirstMaximum) {
    auto y = runOne(NodeSpec{"Hardmax", {{"x", floats({2, 3}, {1, 3, 3, -1, -2, -5})}}});
    ASSERT_TRUE(y.isOk()) << y.status().message();
    EXPECT_EQ(valuesOf<float>(y.value()), (std::vector<float>{0, 1, 0, 1, 0, 0}));
}

TEST(SoftmaxKernelTest, OutOfRangeAxisFails) {
    auto y = runOne(NodeSpec{"Softmax", {{"x", floats({2}, {1, 2})}}, {}, 13, [](NodeBuilder& n) { n.i("axis", 3); }});
    EXPECT_FALSE(y.isOk());
}

}  // namespace
}  // namespace ql
