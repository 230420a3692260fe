#include <gtest/gtest.h>

#include <cmath>

#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql {
namespace {

using test::floats;
using test::NodeSpec;
using test::runOne;
using test::valuesOf;

std::vector<float> variadic(const std::string& op, const NamedTensors& inputs) {
    auto y = runOne(NodeSpec{op, inputs});
    EXPECT_TRUE(y.isOk()) << y.status().message();
    return y.isOk() ? valuesOf<float>(y.value()) : std::vector<float>{};
}

TEST(VariadicKernelTest, ThreeInputsWithBroadcast) {
    const NamedTensors in = {{"a", floats({3}, {1, 5, 3})}, {"b", floats({1}, {2})}, {"c", floats({2, 1}, {0, 4})}};
    EXPECT_EQ(variadic("Max", in), (std::vector<float>{2, 5, 3, 4, 5, 4}));
    EXPECT_EQ(variadic("Min", in), (std::vector<float>{0, 0, 0, 1, 2, 2}));
    EXPECT_EQ(variadic("Sum", in), (std::vector<float>{3, 7, 5, 7, 11, 9}));
    EXPECT_EQ(variadic("Mean", in), (std::vector<float>{1, 7 / 3.0f, 5 / 3.0f, 7 / 3.0f, 11 / 3.0f, 3}));
}

TEST(VariadicKernelTest, SingleInputIsCopied) {
    EXPECT_EQ(variadic("Sum", {{"a", floats({2}, {1, 2})}}), (std::vector<float>{1, 2}));
}

TEST(VariadicKernelTest, MaxPropagatesNaN) {
    const std::vector<float> y = variadic("Max", {{"a", floats({2}, {NAN, 1})}, {"b", floats({2}, {0, NAN})}});
    ASSERT_EQ(y.size(), 2u);
    EXPECT_TRUE(std::isnan(y[0]));
    EXPECT_TRUE(std::isnan(y[1]));
}

TEST(VariadicKernelTest, IntegerMin) {
    auto y = runOne(NodeSpec{"Min", {{"a", test::int64s({2}, {3, -1})}, {"b", test::int64s({2}, {2, 0})}}});
    ASSERT_TRUE(y.isOk());
    EXPECT_EQ(valuesOf<int64_t>(y.value()), (std::vector<int64_t>{2, -1}));
}

}  // namespace
}  // namespace ql
