#include <gtest/gtest.h>

#include "tests/core/exec/kernels/shape_test_util.h"

namespace ql {
namespace {

using test::int64s;
using test::run;
using test::valuesOf;

TEST(OneHotKernelTest, NegativeIndicesCountFromTheBackAndOutOfRangeGivesOff) {
    const Tensor indices = test::floats({3}, {0, -1, 5});
    auto out = run({"OneHot", {indices, int64s({}, {3}), int64s({2}, {2, 9})}, [](auto&) {}, 11, {DataType::Int64}});
    ASSERT_TRUE(out.isOk()) << out.status().message();
    EXPECT_EQ(out.value()[0].shape(), (Shape{3, 3}));
    EXPECT_EQ(valuesOf<int64_t>(out.value()[0]), (std::vector<int64_t>{9, 2, 2, 2, 2, 9, 2, 2, 2}));
}

TEST(OneHotKernelTest, AxisZeroPutsTheDepthFirst) {
    auto out = run({"OneHot",
                    {int64s({2}, {1, 0}), int64s({}, {2}), test::floats({2}, {0, 1})},
                    [](auto& n) { n.i("axis", 0); },
                    11,
                    {DataType::Float}});
    ASSERT_TRUE(out.isOk()) << out.status().message();
    EXPECT_EQ(valuesOf<float>(out.value()[0]), (std::vector<float>{0, 1, 1, 0}));
}

TEST(NonZeroKernelTest, CoordinatesInRowMajorOrder) {
    const Tensor x = test::makeTensor<bool>(DataType::Bool, {2, 2}, {true, false, true, true});
    auto out = run({"NonZero", {x}, [](auto&) {}, 13, {DataType::Int64}});
    ASSERT_TRUE(out.isOk()) << out.status().message();
    EXPECT_EQ(out.value()[0].shape(), (Shape{2, 3}));
    EXPECT_EQ(valuesOf<int64_t>(out.value()[0]), (std::vector<int64_t>{0, 1, 1, 0, 0, 1}));
}

TEST(NonZeroKernelTest, NegativeZeroIsZero) {
    auto out = run({"NonZero", {test::floats({3}, {-0.0f, 2, 0})}, [](auto&) {}, 13, {DataType::Int64}});
    ASSERT_TRUE(out.isOk()) << out.status().message();
    EXPECT_EQ(valuesOf<int64_t>(out.value()[0]), (std::vector<int64_t>{1}));
}

Result<std::vector<Tensor>> topK(const Tensor& x, int64_t k, int64_t largest, int64_t sorted, int64_t axis = -1) {
    return run({"TopK",
                {x, int64s({k})},
                [&](auto& n) { n.i("largest", largest).i("sorted", sorted).i("axis", axis); },
                11,
                {x.dtype(), DataType::Int64}});
}

TEST(TopKKernelTest, TiesKeepAscendingIndexOrder) {
    auto out = topK(test::floats({5}, {3, 1, 3, 2, 3}), 2, 1, 1);
    ASSERT_TRUE(out.isOk()) << out.status().message();
    EXPECT_EQ(valuesOf<float>(out.value()[0]), (std::vector<float>{3, 3}));
    EXPECT_EQ(valuesOf<int64_t>(out.value()[1]), (std::vector<int64_t>{0, 2}));
}

TEST(TopKKernelTest, SmallestAlongAxis0OfInt32) {
    const Tensor x = test::makeTensor<int32_t>(DataType::Int32, {3, 2}, {5, 0, -1, 4, 2, 9});
    auto out = topK(x, 2, 0, 1, 0);
    ASSERT_TRUE(out.isOk()) << out.status().message();
    EXPECT_EQ(valuesOf<int32_t>(out.value()[0]), (std::vector<int32_t>{-1, 0, 2, 4}));
    EXPECT_EQ(valuesOf<int64_t>(out.value()[1]), (std::vector<int64_t>{1, 0, 2, 1}));
}

TEST(TopKKernelTest, UnsortedResultsComeInIndexOrder) {
    auto out = topK(test::floats({4}, {1, 4, 2, 3}), 2, 1, 0);
    ASSERT_TRUE(out.isOk()) << out.status().message();
    EXPECT_EQ(valuesOf<int64_t>(out.value()[1]), (std::vector<int64_t>{1, 3}));
}

TEST(TopKKernelTest, KLargerThanTheAxisFails) {
    EXPECT_FALSE(topK(test::floats({2}, {1, 2}), 3, 1, 1).isOk());
}

TEST(TriluKernelTest, UpperAndLowerWithK) {
    const Tensor x = test::floats({2, 3}, {1, 2, 3, 4, 5, 6});
    auto upper = run({"Trilu", {x, int64s({}, {1})}, [](auto&) {}, 14});
    ASSERT_TRUE(upper.isOk()) << upper.status().message();
    EXPECT_EQ(valuesOf<float>(upper.value()[0]), (std::vector<float>{0, 2, 3, 0, 0, 6}));
    auto lower = run({"Trilu", {x}, [](auto& n) { n.i("upper", 0); }, 14});
    ASSERT_TRUE(lower.isOk()) << lower.status().message();
    EXPECT_EQ(valuesOf<float>(lower.value()[0]), (std::vector<float>{1, 0, 0, 4, 5, 0}));
    auto none = run({"Trilu", {x, int64s({}, {-5})}, [](auto& n) { n.i("upper", 0); }, 14});
    ASSERT_TRUE(none.isOk()) << none.status().message();
    EXPECT_EQ(valuesOf<float>(none.value()[0]), std::vector<float>(6, 0.0f));
}

}  // namespace
}  // namespace ql
