#include <gtest/gtest.h>

#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql {
namespace {

using test::NodeBuilder;
using test::NodeSpec;
using test::runOne;
using test::valuesOf;

std::vector<float> cumSum(const Tensor& x, int64_t axis, int64_t exclusive, int64_t reverse) {
    auto y = runOne(NodeSpec{"CumSum", {{"x", x}, {"axis", test::int64s({}, {axis})}}, {}, 14, [=](NodeBuilder& n) {
                                 n.i("exclusive", exclusive).i("reverse", reverse);
                             }});
    EXPECT_TRUE(y.isOk()) << y.status().message();
    return y.isOk() ? valuesOf<float>(y.value()) : std::vector<float>{};
}

TEST(CumSumKernelTest, ExclusiveAndReverseCombinations) {
    const Tensor x = test::floats({4}, {1, 2, 3, 4});
    EXPECT_EQ(cumSum(x, 0, 0, 0), (std::vector<float>{1, 3, 6, 10}));
    EXPECT_EQ(cumSum(x, 0, 1, 0), (std::vector<float>{0, 1, 3, 6}));
    EXPECT_EQ(cumSum(x, 0, 0, 1), (std::vector<float>{10, 9, 7, 4}));
    EXPECT_EQ(cumSum(x, 0, 1, 1), (std::vector<float>{9, 7, 4, 0}));
}

TEST(CumSumKernelTest, InnerAxisOf2D) {
    EXPECT_EQ(cumSum(test::floats({2, 3}, {1, 2, 3, 4, 5, 6}), -1, 0, 0), (std::vector<float>{1, 3, 6, 4, 9, 15}));
    EXPECT_EQ(cumSum(test::floats({2, 3}, {1, 2, 3, 4, 5, 6}), 0, 0, 0), (std::vector<float>{1, 2, 3, 5, 7, 9}));
}

TEST(CumSumKernelTest, Int32AxisAndInt64Values) {
    auto y = runOne(
        NodeSpec{"CumSum",
                 {{"x", test::int64s({3}, {5, -1, 2})}, {"axis", test::makeTensor<int32_t>(DataType::Int32, {}, {0})}},
                 {},
                 14});
    ASSERT_TRUE(y.isOk()) << y.status().message();
    EXPECT_EQ(valuesOf<int64_t>(y.value()), (std::vector<int64_t>{5, 4, 6}));
}

}  // namespace
}  // namespace ql
