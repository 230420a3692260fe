#include <gtest/gtest.h>

#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql {
namespace {

using test::floats;
using test::NodeSpec;
using test::runOne;
using test::valuesOf;

TEST(PReluKernelTest, PerChannelSlopeBroadcasts) {
    const Tensor x = floats({1, 2, 2}, {-1, 2, -3, 4});
    auto y = runOne(NodeSpec{"PRelu", {{"x", x}, {"slope", floats({2, 1}, {0.5f, 0.1f})}}});
    ASSERT_TRUE(y.isOk()) << y.status().message();
    EXPECT_EQ(valuesOf<float>(y.value()), (std::vector<float>{-0.5f, 2, -0.3f, 4}));
}

TEST(PReluKernelTest, SlopeThatWouldGrowTheOutputIsRejected) {
    auto y = runOne(NodeSpec{"PRelu", {{"x", floats({2}, {1, 2})}, {"slope", floats({3, 2}, {1, 1, 1, 1, 1, 1})}}});
    EXPECT_FALSE(y.isOk());
}

}  // namespace
}  // namespace ql
