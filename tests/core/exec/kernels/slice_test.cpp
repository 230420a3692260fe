#include <gtest/gtest.h>

#include <limits>

#include "tests/core/exec/kernels/shape_test_util.h"

namespace ql {
namespace {

using test::int64s;
using test::run;
using test::valuesOf;

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

const Tensor kRow = test::floats({6}, {0, 1, 2, 3, 4, 5});

std::vector<float> slice(const Tensor& x, std::vector<int64_t> starts, std::vector<int64_t> ends,
                         std::vector<int64_t> axes, std::vector<int64_t> steps) {
    auto out = run({"Slice", {x, int64s(starts), int64s(ends), int64s(axes), int64s(steps)}});
    EXPECT_TRUE(out.isOk()) << out.status().message();
    return out.isOk() ? valuesOf<float>(out.value()[0]) : std::vector<float>{};
}

TEST(SliceKernelTest, NegativeStepWalksBackwardsToTheStartWithInt64Min) {
    EXPECT_EQ(slice(kRow, {kMax}, {kMin}, {0}, {-1}), (std::vector<float>{5, 4, 3, 2, 1, 0}));
    EXPECT_EQ(slice(kRow, {-2}, {0}, {0}, {-2}), (std::vector<float>{4, 2}));
}

TEST(SliceKernelTest, EndsBeyondTheAxisAreClamped) {
    EXPECT_EQ(slice(kRow, {1}, {kMax}, {0}, {2}), (std::vector<float>{1, 3, 5}));
    EXPECT_EQ(slice(kRow, {-100}, {2}, {-1}, {1}), (std::vector<float>{0, 1}));
}

TEST(SliceKernelTest, EmptyRangeGivesAZeroSizeAxis) {
    auto out = run({"Slice", {kRow, int64s({4}), int64s({2})}});
    ASSERT_TRUE(out.isOk()) << out.status().message();
    EXPECT_EQ(out.value()[0].shape(), (Shape{0}));
}

TEST(SliceKernelTest, AttributesBeforeOpset10OnAnInnerAxis) {
    const Tensor x = test::floats({2, 3}, {1, 2, 3, 4, 5, 6});
    auto out = run({"Slice", {x}, [](auto& n) { n.ints("starts", {1}).ints("ends", {3}).ints("axes", {1}); }, 9});
    ASSERT_TRUE(out.isOk()) << out.status().message();
    EXPECT_EQ(valuesOf<float>(out.value()[0]), (std::vector<float>{2, 3, 5, 6}));
}

TEST(SliceKernelTest, ZeroStepFails) {
    auto out = run({"Slice", {kRow, int64s({0}), int64s({3}), int64s({0}), int64s({0})}});
    EXPECT_FALSE(out.isOk());
}

}  // namespace
}  // namespace ql
