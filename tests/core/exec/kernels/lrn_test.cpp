#include <gtest/gtest.h>

#include <cmath>

#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql {
namespace {

using test::expectNear;
using test::NodeBuilder;
using test::NodeSpec;
using test::runOne;

TEST(LrnKernelTest, WindowAcrossChannels) {
    // 4 channels of one pixel; size 3 sums channels c-1..c+1.
    const std::vector<float> x = {1, 2, 3, 4};
    auto y = runOne(NodeSpec{"LRN", {{"x", test::floats({1, 4, 1, 1}, x)}}, {}, 13, [](NodeBuilder& n) {
                                 n.i("size", 3).f("alpha", 0.3f).f("beta", 0.5f).f("bias", 2.0f);
                             }});
    ASSERT_TRUE(y.isOk()) << y.status().message();
    const float sq[] = {1 + 4, 1 + 4 + 9, 4 + 9 + 16, 9 + 16};
    std::vector<float> expected;
    for (size_t c = 0; c < 4; ++c) expected.push_back(x[c] / std::pow(2.0f + 0.3f / 3 * sq[c], 0.5f));
    expectNear(y.value(), expected);
}

TEST(LrnKernelTest, EvenSizeWindowLeansForward) {
    const std::vector<float> x = {1, 2, 3};
    auto y = runOne(NodeSpec{"LRN", {{"x", test::floats({1, 3}, x)}}, {}, 13, [](NodeBuilder& n) { n.i("size", 2); }});
    ASSERT_TRUE(y.isOk()) << y.status().message();
    // size 2: floor(1/2) = 0 channels before, ceil(1/2) = 1 after.
    const float sq[] = {1 + 4, 4 + 9, 9};
    std::vector<float> expected;
    for (size_t c = 0; c < 3; ++c) expected.push_back(x[c] / std::pow(1.0f + 1e-4f / 2 * sq[c], 0.75f));
    expectNear(y.value(), expected);
}

TEST(LrnKernelTest, MissingSizeFails) {
    EXPECT_FALSE(runOne(NodeSpec{"LRN", {{"x", test::floats({1, 1}, {1})}}, {}, 13}).isOk());
}

}  // namespace
}  // namespace ql
