#include <gtest/gtest.h>

#include <cmath>

#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql {
namespace {

using test::NodeBuilder;
using test::NodeSpec;
using test::runOne;
using test::valuesOf;

const Tensor kX = test::floats({4}, {-INFINITY, 1, INFINITY, NAN});

std::vector<uint8_t> isInf(std::function<void(NodeBuilder&)> attrs) {
    auto y = runOne(NodeSpec{"IsInf", {{"x", kX}}, {DataType::Bool}, 13, std::move(attrs)});
    EXPECT_TRUE(y.isOk()) << y.status().message();
    return y.isOk() ? valuesOf<uint8_t>(y.value()) : std::vector<uint8_t>{};
}

TEST(IsInfNanKernelTest, DetectNegativeAndPositive) {
    EXPECT_EQ(isInf({}), (std::vector<uint8_t>{1, 0, 1, 0}));
    EXPECT_EQ(isInf([](NodeBuilder& n) { n.i("detect_negative", 0); }), (std::vector<uint8_t>{0, 0, 1, 0}));
    EXPECT_EQ(isInf([](NodeBuilder& n) { n.i("detect_positive", 0); }), (std::vector<uint8_t>{1, 0, 0, 0}));
}

TEST(IsInfNanKernelTest, IsNaN) {
    auto y = runOne(NodeSpec{"IsNaN", {{"x", kX}}, {DataType::Bool}, 13});
    ASSERT_TRUE(y.isOk());
    EXPECT_EQ(valuesOf<uint8_t>(y.value()), (std::vector<uint8_t>{0, 0, 0, 1}));
}

}  // namespace
}  // namespace ql
