#include <gtest/gtest.h>

#include "core/exec/kernels/elementwise_util.h"
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

namespace ql::test {

TEST(QuantizeLinearBlockedTest, Opset21BlocksAlongAnAxisShareAScale) {
    // x [2, 4], blocks of 2 along axis 1: scale [2, 2].
    const Tensor x = floats({2, 4}, {1, 2, 30, 40, -1, -2, -30, -40});
    const Tensor scale = floats({2, 2}, {1, 10, 1, 10});
    auto q = runOne(NodeSpec("QuantizeLinear",
                             {{"x", x},
                              {"scale", scale},
                              {"zero", Tensor::fromVector(DataType::Int8, {2, 2}, std::vector<int8_t>{0, 0, 0, 0})}},
                             {DataType::Int8}, 21, [](NodeBuilder& n) { n.i("axis", 1).i("block_size", 2); }));
    ASSERT_TRUE(q) << q.status().message();
    EXPECT_EQ(valuesOf<int8_t>(*q), (std::vector<int8_t>{1, 2, 3, 4, -1, -2, -3, -4}));
    auto dq = runOne(NodeSpec("DequantizeLinear", {{"q", *q}, {"scale", scale}}, {DataType::Float}, 21,
                              [](NodeBuilder& n) { n.i("axis", 1).i("block_size", 2); }));
    ASSERT_TRUE(dq) << dq.status().message();
    expectNear(*dq, {1, 2, 30, 40, -1, -2, -30, -40});
    auto bad = runOne(NodeSpec("QuantizeLinear", {{"x", x}, {"scale", floats({2, 3}, {1, 1, 1, 1, 1, 1})}},
                               {DataType::UInt8}, 21, [](NodeBuilder& n) { n.i("axis", 1).i("block_size", 2); }));
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.status().message().find("blocks of 2 need [2,2]"), std::string::npos) << bad.status().message();
}

TEST(QuantizeLinearBlockedTest, Opset21OutputDtypeAnd16BitTypes) {
    auto q = runOne(NodeSpec("QuantizeLinear", {{"x", floats({3}, {-70000, 1.5f, 300})}, {"scale", floats({}, {1})}},
                             {DataType::Int16}, 21, [](NodeBuilder& n) { n.i("output_dtype", 5); }));
    ASSERT_TRUE(q) << q.status().message();
    EXPECT_EQ(q->dtype(), DataType::Int16);
    EXPECT_EQ(valuesOf<int16_t>(*q), (std::vector<int16_t>{-32768, 2, 300}));
}

TEST(QuantizeLinearBlockedTest, Opset19DequantizesIntoTheScalesType) {
    const Tensor halfScale = fromFloatTensor(floats({}, {0.5f}), DataType::Float16);
    auto dq = runOne(
        NodeSpec("DequantizeLinear",
                 {{"q", Tensor::fromVector(DataType::Int8, {2}, std::vector<int8_t>{4, -6})}, {"scale", halfScale}},
                 {DataType::Float16}, 19));
    ASSERT_TRUE(dq) << dq.status().message();
    EXPECT_EQ(dq->dtype(), DataType::Float16);
    expectNear(*dq, {2, -3});
}

}  // namespace ql::test
