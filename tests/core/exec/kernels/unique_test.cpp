#include "core/exec/kernels/unique.h"

#include <gtest/gtest.h>

#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql::test {

namespace {

std::vector<Tensor> unique(const Tensor& x, const std::function<void(NodeBuilder&)>& attrs) {
    auto out = runNode(
        NodeSpec("Unique", {{"x", x}}, {x.dtype(), DataType::Int64, DataType::Int64, DataType::Int64}, 11, attrs));
    EXPECT_TRUE(out) << out.status().message();
    return out ? *out : std::vector<Tensor>(4);
}

}  // namespace

TEST(UniqueTest, SpecExampleUnsortedAndSortedWithoutAxis) {
    const Tensor x = floats({6}, {2, 1, 1, 3, 4, 3});
    const auto unsorted = unique(x, [](NodeBuilder& n) { n.i("sorted", 0); });
    expectNear(unsorted[0], {2, 1, 3, 4});
    EXPECT_EQ(valuesOf<int64_t>(unsorted[1]), (std::vector<int64_t>{0, 1, 3, 4}));
    EXPECT_EQ(valuesOf<int64_t>(unsorted[2]), (std::vector<int64_t>{0, 1, 1, 2, 3, 2}));
    EXPECT_EQ(valuesOf<int64_t>(unsorted[3]), (std::vector<int64_t>{1, 2, 2, 1}));
    const auto sorted = unique(x, [](NodeBuilder&) {});
    expectNear(sorted[0], {1, 2, 3, 4});
    EXPECT_EQ(valuesOf<int64_t>(sorted[1]), (std::vector<int64_t>{1, 0, 3, 4}));
    EXPECT_EQ(valuesOf<int64_t>(sorted[2]), (std::vector<int64_t>{1, 0, 0, 2, 3, 2}));
    EXPECT_EQ(valuesOf<int64_t>(sorted[3]), (std::vector<int64_t>{2, 1, 2, 1}));
}

TEST(UniqueTest, SortedSlicesAlongAnAxis) {
    // Rows {1,0,0}, {1,0,0}, {2,3,4}: two distinct rows.
    const auto out = unique(floats({3, 3}, {1, 0, 0, 1, 0, 0, 2, 3, 4}), [](NodeBuilder& n) { n.i("axis", 0); });
    EXPECT_EQ(out[0].shape(), (Shape{2, 3}));
    expectNear(out[0], {1, 0, 0, 2, 3, 4});
    EXPECT_EQ(valuesOf<int64_t>(out[2]), (std::vector<int64_t>{0, 0, 1}));
    EXPECT_EQ(valuesOf<int64_t>(out[3]), (std::vector<int64_t>{2, 1}));
}

TEST(UniqueTest, Int64ValuesCompareExactly) {
    const int64_t big = (int64_t{1} << 53) + 1;  // not a float, nor a double
    const auto out = unique(int64s({3}, {big, big - 1, big}), [](NodeBuilder&) {});
    EXPECT_EQ(valuesOf<int64_t>(out[0]), (std::vector<int64_t>{big - 1, big}));
}

}  // namespace ql::test
