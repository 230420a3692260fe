#include <gtest/gtest.h>

#include "core/common/half.h"
#include "tests/core/exec/kernels/shape_test_util.h"

namespace ql {
namespace {

using test::int64s;
using test::run;
using test::valuesOf;

const Tensor kMatrix = test::floats({3, 2}, {1, 2, 3, 4, 5, 6});

TEST(GatherKernelTest, NegativeIndicesAndMatrixShapedIndicesOnAxis1) {
    auto out = run({"Gather", {kMatrix, int64s({2, 2}, {-1, 0, 1, 1})}, [](auto& n) { n.i("axis", 1); }});
    ASSERT_TRUE(out.isOk()) << out.status().message();
    EXPECT_EQ(out.value()[0].shape(), (Shape{3, 2, 2}));
    EXPECT_EQ(valuesOf<float>(out.value()[0]), (std::vector<float>{2, 1, 2, 2, 4, 3, 4, 4, 6, 5, 6, 6}));
}

TEST(GatherKernelTest, ScalarIndexDropsTheAxisAndInt32IndicesWork) {
    const Tensor index = test::makeTensor<int32_t>(DataType::Int32, {}, {2});
    auto out = run({"Gather", {kMatrix, index}});
    ASSERT_TRUE(out.isOk()) << out.status().message();
    EXPECT_EQ(out.value()[0].shape(), (Shape{2}));
    EXPECT_EQ(valuesOf<float>(out.value()[0]), (std::vector<float>{5, 6}));
}

TEST(GatherKernelTest, OutOfRangeIndexFailsInsteadOfReadingPastTheData) {
    auto out = run({"Gather", {kMatrix, int64s({3})}});
    ASSERT_FALSE(out.isOk());
    EXPECT_NE(out.status().message().find("out of range"), std::string::npos);
}

TEST(GatherKernelTest, EmptyIndicesGiveAnEmptyAxis) {
    auto out = run({"Gather", {kMatrix, int64s({0}, {})}});
    ASSERT_TRUE(out.isOk()) << out.status().message();
    EXPECT_EQ(out.value()[0].shape(), (Shape{0, 2}));
}

TEST(GatherElementsKernelTest, PicksAlongTheAxisPerPosition) {
    auto out = run({"GatherElements", {kMatrix, int64s({2, 2}, {1, 0, -1, 1})}, [](auto& n) { n.i("axis", 1); }});
    ASSERT_TRUE(out.isOk()) << out.status().message();
    EXPECT_EQ(valuesOf<float>(out.value()[0]), (std::vector<float>{2, 1, 4, 4}));
}

TEST(GatherNDKernelTest, BatchDimsIndexWithinEachBatch) {
    const Tensor data = test::floats({2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7});
    auto out = run({"GatherND", {data, int64s({2, 1}, {1, 0})}, [](auto& n) { n.i("batch_dims", 1); }});
    ASSERT_TRUE(out.isOk()) << out.status().message();
    EXPECT_EQ(out.value()[0].shape(), (Shape{2, 2}));
    EXPECT_EQ(valuesOf<float>(out.value()[0]), (std::vector<float>{2, 3, 4, 5}));
}

TEST(GatherNDKernelTest, FullTuplesPickElements) {
    const Tensor data = test::makeTensor<bool>(DataType::Bool, {2, 2}, {false, true, true, false});
    auto out = run({"GatherND", {data, int64s({2, 2}, {0, 1, 1, 1})}});
    ASSERT_TRUE(out.isOk()) << out.status().message();
    EXPECT_EQ(valuesOf<bool>(out.value()[0]), (std::vector<bool>{true, false}));
}

TEST(ScatterElementsKernelTest, ReductionAddAccumulatesRepeatedIndices) {
    const Tensor data = test::floats({1, 4}, {1, 1, 1, 1});
    const Tensor updates = test::floats({1, 3}, {2, 3, 4});
    auto out = run({"ScatterElements",
                    {data, int64s({1, 3}, {1, 1, -1}), updates},
                    [](auto& n) { n.i("axis", 1).s("reduction", "add"); },
                    16});
    ASSERT_TRUE(out.isOk()) << out.status().message();
    EXPECT_EQ(valuesOf<float>(out.value()[0]), (std::vector<float>{1, 6, 1, 5}));
}

TEST(ScatterElementsKernelTest, NoReductionReplacesAndMulMultipliesInt64) {
    const Tensor data = int64s({2, 2}, {1, 2, 3, 4});
    const Tensor updates = int64s({1, 2}, {10, 20});
    auto replaced = run({"ScatterElements", {data, int64s({1, 2}, {1, 0}), updates}});
    ASSERT_TRUE(replaced.isOk()) << replaced.status().message();
    EXPECT_EQ(valuesOf<int64_t>(replaced.value()[0]), (std::vector<int64_t>{1, 20, 10, 4}));
    auto mul =
        run({"ScatterElements", {data, int64s({1, 2}, {1, 0}), updates}, [](auto& n) { n.s("reduction", "mul"); }, 16});
    ASSERT_TRUE(mul.isOk()) << mul.status().message();
    EXPECT_EQ(valuesOf<int64_t>(mul.value()[0]), (std::vector<int64_t>{1, 40, 30, 4}));
}

TEST(ScatterNDKernelTest, SlicesAreWrittenAndMultipliedInFloat16) {
    const Tensor data = test::makeTensor<uint16_t>(DataType::Float16, {2, 2},
                                                   {floatToHalf(1), floatToHalf(2), floatToHalf(3), floatToHalf(4)});
    const Tensor updates = test::makeTensor<uint16_t>(DataType::Float16, {1, 2}, {floatToHalf(0.5f), floatToHalf(3)});
    auto out = run({"ScatterND", {data, int64s({1, 1}, {1}), updates}, [](auto& n) { n.s("reduction", "mul"); }, 16});
    ASSERT_TRUE(out.isOk()) << out.status().message();
    const auto v = valuesOf<uint16_t>(out.value()[0]);
    EXPECT_EQ(halfToFloat(v[0]), 1.0f);
    EXPECT_EQ(halfToFloat(v[2]), 1.5f);
    EXPECT_EQ(halfToFloat(v[3]), 12.0f);
}

TEST(ScatterNDKernelTest, UpdatesOfTheWrongShapeFail) {
    auto out = run({"ScatterND", {kMatrix, int64s({1, 1}, {0}), test::floats({1, 3}, {1, 2, 3})}});
    EXPECT_FALSE(out.isOk());
}

}  // namespace
}  // namespace ql
