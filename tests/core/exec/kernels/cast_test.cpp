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

Result<Tensor> castTo(const Tensor& x, DataType to) {
    return runOne(
        NodeSpec{"Cast", {{"x", x}}, {to}, 17, [to](NodeBuilder& n) { n.i("to", static_cast<int64_t>(to)); }});
}

TEST(CastKernelTest, FloatToIntegersTruncatesTowardZero) {
    auto y = castTo(floats({3}, {1.9f, -1.9f, 300.0f}), DataType::Int32);
    ASSERT_TRUE(y.isOk()) << y.status().message();
    EXPECT_EQ(valuesOf<int32_t>(y.value()), (std::vector<int32_t>{1, -1, 300}));
}

TEST(CastKernelTest, ToAndFromBool) {
    auto b = castTo(floats({3}, {0.0f, 2.0f, -0.5f}), DataType::Bool);
    ASSERT_TRUE(b.isOk());
    EXPECT_EQ(valuesOf<uint8_t>(b.value()), (std::vector<uint8_t>{0, 1, 1}));
    auto f = castTo(test::bools({2}, {1, 0}), DataType::Float);
    ASSERT_TRUE(f.isOk());
    EXPECT_EQ(valuesOf<float>(f.value()), (std::vector<float>{1, 0}));
}

TEST(CastKernelTest, Float16AndBfloat16RoundToNearestEven) {
    auto h = castTo(floats({2}, {1.0f + 1.0f / 2048, 65504.0f}), DataType::Float16);
    ASSERT_TRUE(h.isOk());
    EXPECT_EQ(valuesOf<uint16_t>(h.value()), (std::vector<uint16_t>{0x3c00, 0x7bff}));  // tie rounds down to even
    auto b = castTo(floats({1}, {1.0f + 3.0f / 256}), DataType::BFloat16);
    ASSERT_TRUE(b.isOk());
    EXPECT_EQ(valuesOf<uint16_t>(b.value()), (std::vector<uint16_t>{0x3f82}));
    auto back = castTo(h.value(), DataType::Double);
    ASSERT_TRUE(back.isOk());
    EXPECT_EQ(valuesOf<double>(back.value()), (std::vector<double>{1.0, 65504.0}));
}

TEST(CastKernelTest, SameTypeSharesTheInput) {
    auto y = castTo(test::int64s({2}, {1, 2}), DataType::Int64);
    ASSERT_TRUE(y.isOk());
    EXPECT_EQ(valuesOf<int64_t>(y.value()), (std::vector<int64_t>{1, 2}));
}

TEST(CastKernelTest, CastLikeTakesTheSecondInputsType) {
    auto y = runOne(NodeSpec{"CastLike",
                             {{"x", test::int64s({2}, {3, -4})}, {"like", Tensor::zeros(DataType::Double, {1})}},
                             {DataType::Double}});
    ASSERT_TRUE(y.isOk()) << y.status().message();
    EXPECT_EQ(valuesOf<double>(y.value()), (std::vector<double>{3, -4}));
}

TEST(CastKernelTest, StringTargetIsRejected) {
    auto y = castTo(floats({1}, {1}), DataType::String);
    EXPECT_FALSE(y.isOk());
}

}  // namespace
}  // namespace ql
