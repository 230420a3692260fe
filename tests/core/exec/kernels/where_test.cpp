#include <gtest/gtest.h>

#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql {
namespace {

using test::NodeSpec;
using test::runOne;
using test::valuesOf;

TEST(WhereKernelTest, ThreeWayBroadcast) {
    const Tensor c = test::bools({2, 1}, {1, 0});
    auto y = runOne(NodeSpec{
        "Where", {{"c", c}, {"x", test::floats({3}, {1, 2, 3})}, {"y", test::floats({}, {-1})}}, {DataType::Float}});
    ASSERT_TRUE(y.isOk()) << y.status().message();
    EXPECT_EQ(y.value().shape(), (Shape{2, 3}));
    EXPECT_EQ(valuesOf<float>(y.value()), (std::vector<float>{1, 2, 3, -1, -1, -1}));
}

TEST(WhereKernelTest, Int64AndBoolValues) {
    const Tensor c = test::bools({3}, {0, 1, 0});
    auto y = runOne(NodeSpec{"Where",
                             {{"c", c}, {"x", test::int64s({3}, {1, 2, 3})}, {"y", test::int64s({3}, {7, 8, 9})}},
                             {DataType::Int64}});
    ASSERT_TRUE(y.isOk());
    EXPECT_EQ(valuesOf<int64_t>(y.value()), (std::vector<int64_t>{7, 2, 9}));
    auto b = runOne(
        NodeSpec{"Where", {{"c", c}, {"x", test::bools({1}, {1})}, {"y", test::bools({1}, {0})}}, {DataType::Bool}});
    ASSERT_TRUE(b.isOk());
    EXPECT_EQ(valuesOf<uint8_t>(b.value()), (std::vector<uint8_t>{0, 1, 0}));
}

}  // namespace
}  // namespace ql
