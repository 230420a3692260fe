#include <gtest/gtest.h>

#include <cmath>

#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql {
namespace {

using test::expectNear;
using test::floats;
using test::NodeBuilder;
using test::NodeSpec;
using test::runOne;

TEST(InstanceNormalizationKernelTest, EachPlaneIsNormalizedThenScaled) {
    const Tensor x = floats({2, 2, 2}, {1, 3, 0, 4, 5, 5, -1, 1});
    auto y = runOne(NodeSpec{"InstanceNormalization",
                             {{"x", x}, {"s", floats({2}, {1, 2})}, {"b", floats({2}, {0, 1})}},
                             {},
                             6,
                             [](NodeBuilder& n) { n.f("epsilon", 0.0f); }});
    ASSERT_TRUE(y.isOk()) << y.status().message();
    expectNear(y.value(), {-1, 1, -1, 3, NAN, NAN, -1, 3});
}

TEST(InstanceNormalizationKernelTest, DefaultEpsilon) {
    auto y = runOne(NodeSpec{"InstanceNormalization",
                             {{"x", floats({1, 1, 2}, {0, 2})}, {"s", floats({1}, {1})}, {"b", floats({1}, {0})}},
                             {},
                             6});
    ASSERT_TRUE(y.isOk());
    expectNear(y.value(), {-1 / std::sqrt(1 + 1e-5f), 1 / std::sqrt(1 + 1e-5f)});
}

}  // namespace
}  // namespace ql
