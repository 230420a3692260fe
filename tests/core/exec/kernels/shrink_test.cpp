#include <gtest/gtest.h>

#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql {
namespace {

using test::NodeBuilder;
using test::NodeSpec;
using test::runOne;
using test::valuesOf;

TEST(ShrinkKernelTest, DefaultsAreSoftThresholdingAtHalf) {
    auto y = runOne(NodeSpec{"Shrink", {{"x", test::floats({5}, {-2, -0.5f, 0, 0.4f, 2})}}, {}, 9});
    ASSERT_TRUE(y.isOk()) << y.status().message();
    EXPECT_EQ(valuesOf<float>(y.value()), (std::vector<float>{-2, 0, 0, 0, 2}));
}

TEST(ShrinkKernelTest, LambdAndBiasOnIntegers) {
    auto y = runOne(NodeSpec{"Shrink", {{"x", test::int64s({5}, {-3, -1, 0, 1, 3})}}, {}, 9, [](NodeBuilder& n) {
                                 n.f("lambd", 1.5f).f("bias", 1.5f);
                             }});
    ASSERT_TRUE(y.isOk()) << y.status().message();
    EXPECT_EQ(valuesOf<int64_t>(y.value()), (std::vector<int64_t>{-1, 0, 0, 0, 1}));
}

}  // namespace
}  // namespace ql
