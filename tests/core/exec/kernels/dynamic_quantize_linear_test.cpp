#include <gtest/gtest.h>

#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql {
namespace {

using test::NodeSpec;
using test::runNode;
using test::valuesOf;

const std::vector<DataType> kOutputs = {DataType::UInt8, DataType::Float, DataType::UInt8};

TEST(DynamicQuantizeLinearKernelTest, RangeIncludesZero) {
    // Range [0, 255]: scale 1, zero point 0; 2.5 rounds to even.
    auto y =
        runNode(NodeSpec{"DynamicQuantizeLinear", {{"x", test::floats({4}, {0, 2.5f, 255, 100.4f})}}, kOutputs, 11});
    ASSERT_TRUE(y.isOk()) << y.status().message();
    EXPECT_EQ(valuesOf<uint8_t>(y.value()[0]), (std::vector<uint8_t>{0, 2, 255, 100}));
    EXPECT_EQ(valuesOf<float>(y.value()[1]), (std::vector<float>{1}));
    EXPECT_EQ(valuesOf<uint8_t>(y.value()[2]), (std::vector<uint8_t>{0}));
}

TEST(DynamicQuantizeLinearKernelTest, NegativeRangeMovesTheZeroPoint) {
    auto y = runNode(NodeSpec{"DynamicQuantizeLinear", {{"x", test::floats({3}, {-2.55f, 0, 2.55f})}}, kOutputs, 11});
    ASSERT_TRUE(y.isOk()) << y.status().message();
    EXPECT_FLOAT_EQ(valuesOf<float>(y.value()[1])[0], 0.02f);
    EXPECT_EQ(valuesOf<uint8_t>(y.value()[2]), (std::vector<uint8_t>{128}));
    EXPECT_EQ(valuesOf<uint8_t>(y.value()[0]), (std::vector<uint8_t>{0, 128, 255}));
}

TEST(DynamicQuantizeLinearKernelTest, AllZeroInputGivesZeroScale) {
    auto y = runNode(NodeSpec{"DynamicQuantizeLinear", {{"x", test::floats({2}, {0, 0})}}, kOutputs, 11});
    ASSERT_TRUE(y.isOk()) << y.status().message();
    EXPECT_EQ(valuesOf<uint8_t>(y.value()[0]), (std::vector<uint8_t>{0, 0}));
    EXPECT_EQ(valuesOf<float>(y.value()[1]), (std::vector<float>{0}));
}

}  // namespace
}  // namespace ql
