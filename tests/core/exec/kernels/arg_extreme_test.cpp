#include <gtest/gtest.h>

#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql {
namespace {

using test::NodeBuilder;
using test::NodeSpec;
using test::runOne;
using test::valuesOf;

const Tensor kX = test::floats({2, 3}, {2, 7, 7, 5, 1, 1});

Result<Tensor> arg(const std::string& op, std::function<void(NodeBuilder&)> attrs) {
    return runOne(NodeSpec{op, {{"x", kX}}, {DataType::Int64}, 13, std::move(attrs)});
}

TEST(ArgExtremeKernelTest, DefaultAxisZeroKeepsDims) {
    auto y = arg("ArgMax", {});
    ASSERT_TRUE(y.isOk()) << y.status().message();
    EXPECT_EQ(y.value().shape(), (Shape{1, 3}));
    EXPECT_EQ(valuesOf<int64_t>(y.value()), (std::vector<int64_t>{1, 0, 0}));
}

TEST(ArgExtremeKernelTest, FirstOrLastIndexOfTies) {
    auto first = arg("ArgMax", [](NodeBuilder& n) { n.i("axis", -1).i("keepdims", 0); });
    ASSERT_TRUE(first.isOk());
    EXPECT_EQ(first.value().shape(), (Shape{2}));
    EXPECT_EQ(valuesOf<int64_t>(first.value()), (std::vector<int64_t>{1, 0}));
    auto last = arg("ArgMin", [](NodeBuilder& n) { n.i("axis", 1).i("keepdims", 0).i("select_last_index", 1); });
    ASSERT_TRUE(last.isOk());
    EXPECT_EQ(valuesOf<int64_t>(last.value()), (std::vector<int64_t>{0, 2}));
}

TEST(ArgExtremeKernelTest, IntegerInput) {
    auto y = runOne(NodeSpec{"ArgMin", {{"x", test::int64s({4}, {3, -9, 4, -9})}}, {DataType::Int64}, 13});
    ASSERT_TRUE(y.isOk());
    EXPECT_EQ(valuesOf<int64_t>(y.value()), (std::vector<int64_t>{1}));
}

}  // namespace
}  // namespace ql
