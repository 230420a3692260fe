#include <gtest/gtest.h>

#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql {
namespace {

using test::floats;
using test::NodeBuilder;
using test::NodeSpec;
using test::runOne;
using test::valuesOf;

TEST(QuantizeLinearKernelTest, Uint8RoundsHalfToEvenAndSaturates) {
    const Tensor x = floats({6}, {0, 1, 3, 5, 600, -600});
    auto y = runOne(
        NodeSpec{"QuantizeLinear",
                 {{"x", x}, {"s", floats({}, {2})}, {"z", test::makeTensor<uint8_t>(DataType::UInt8, {}, {128})}},
                 {DataType::UInt8},
                 13});
    ASSERT_TRUE(y.isOk()) << y.status().message();
    EXPECT_EQ(valuesOf<uint8_t>(y.value()), (std::vector<uint8_t>{128, 128, 130, 130, 255, 0}));
}

TEST(QuantizeLinearKernelTest, DefaultZeroPointIsUint8) {
    auto y = runOne(
        NodeSpec{"QuantizeLinear", {{"x", floats({2}, {-1, 2.5f})}, {"s", floats({}, {1})}}, {DataType::UInt8}, 13});
    ASSERT_TRUE(y.isOk()) << y.status().message();
    EXPECT_EQ(valuesOf<uint8_t>(y.value()), (std::vector<uint8_t>{0, 2}));
}

TEST(QuantizeLinearKernelTest, Int8PerAxis) {
    const Tensor x = floats({2, 3}, {1, 2, 3, -1, -2, -300});
    const Tensor s = floats({3}, {1, 0.5f, 1});
    const Tensor z = test::makeTensor<int8_t>(DataType::Int8, {3}, {0, 1, -1});
    auto y =
        runOne(NodeSpec{"QuantizeLinear", {{"x", x}, {"s", s}, {"z", z}}, {DataType::Int8}, 13, [](NodeBuilder& n) {
                            n.i("axis", 1);
                        }});
    ASSERT_TRUE(y.isOk()) << y.status().message();
    EXPECT_EQ(valuesOf<int8_t>(y.value()), (std::vector<int8_t>{1, 5, 2, -1, -3, -128}));
}

TEST(QuantizeLinearKernelTest, DequantizePerTensorAndPerAxis) {
    const Tensor q = test::makeTensor<uint8_t>(DataType::UInt8, {2, 2}, {0, 10, 128, 255});
    auto t = runOne(
        NodeSpec{"DequantizeLinear",
                 {{"x", q}, {"s", floats({}, {0.5f})}, {"z", test::makeTensor<uint8_t>(DataType::UInt8, {}, {10})}},
                 {DataType::Float},
                 13});
    ASSERT_TRUE(t.isOk()) << t.status().message();
    EXPECT_EQ(valuesOf<float>(t.value()), (std::vector<float>{-5, 0, 59, 122.5f}));
    auto a = runOne(NodeSpec{
        "DequantizeLinear",
        {{"x", q}, {"s", floats({2}, {1, 2})}, {"z", test::makeTensor<uint8_t>(DataType::UInt8, {2}, {0, 128})}},
        {DataType::Float},
        13,
        [](NodeBuilder& n) { n.i("axis", 0); }});
    ASSERT_TRUE(a.isOk()) << a.status().message();
    EXPECT_EQ(valuesOf<float>(a.value()), (std::vector<float>{0, 10, 0, 254}));
}

TEST(QuantizeLinearKernelTest, ScaleLengthNotMatchingTheAxisFails) {
    auto y = runOne(NodeSpec{"QuantizeLinear",
                             {{"x", floats({2, 3}, {1, 2, 3, 4, 5, 6})}, {"s", floats({2}, {1, 1})}},
                             {DataType::UInt8},
                             13});
    EXPECT_FALSE(y.isOk());
}

}  // namespace
}  // namespace ql
