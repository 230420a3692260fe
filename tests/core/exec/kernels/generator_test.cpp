#include <gtest/gtest.h>

#include "tests/core/exec/kernels/shape_test_util.h"

namespace ql {
namespace {

using test::int64s;
using test::ModelBuilder;
using test::run;
using test::valuesOf;

Result<std::vector<Tensor>> runConstant(const std::function<void(test::NodeBuilder&)>& attributes, DataType dtype) {
    ModelBuilder b(13);
    test::NodeBuilder node = b.node("Constant", {}, {"y"});
    attributes(node);
    b.output("y", dtype);
    return test::runModel(b, {});
}

TEST(ConstantKernelTest, EveryValueAttributeForm) {
    auto tensor = runConstant(
        [](auto& n) {
            n.tensor("value", test::makeTensor("v", DataType::Int32, {2}, {4, 5}));
        },
        DataType::Int32);
    ASSERT_TRUE(tensor.isOk()) << tensor.status().message();
    EXPECT_EQ(valuesOf<int32_t>(tensor.value()[0]), (std::vector<int32_t>{4, 5}));
    auto f = runConstant([](auto& n) { n.f("value_float", 2.5f); }, DataType::Float);
    ASSERT_TRUE(f.isOk()) << f.status().message();
    EXPECT_EQ(f.value()[0].rank(), 0u);
    EXPECT_EQ(valuesOf<float>(f.value()[0]), (std::vector<float>{2.5f}));
    auto fs = runConstant([](auto& n) { n.floats("value_floats", {1, 2}); }, DataType::Float);
    ASSERT_TRUE(fs.isOk()) << fs.status().message();
    EXPECT_EQ(valuesOf<float>(fs.value()[0]), (std::vector<float>{1, 2}));
    auto i = runConstant([](auto& n) { n.i("value_int", -3); }, DataType::Int64);
    ASSERT_TRUE(i.isOk()) << i.status().message();
    EXPECT_EQ(valuesOf<int64_t>(i.value()[0]), (std::vector<int64_t>{-3}));
    auto is = runConstant([](auto& n) { n.ints("value_ints", {7, 8, 9}); }, DataType::Int64);
    ASSERT_TRUE(is.isOk()) << is.status().message();
    EXPECT_EQ(valuesOf<int64_t>(is.value()[0]), (std::vector<int64_t>{7, 8, 9}));
}

TEST(ConstantOfShapeKernelTest, DefaultsToFloatZeroAndUsesTheValueType) {
    auto zero = run({"ConstantOfShape", {int64s({2, 3})}, [](auto&) {}, 13, {DataType::Float}});
    ASSERT_TRUE(zero.isOk()) << zero.status().message();
    EXPECT_EQ(zero.value()[0].shape(), (Shape{2, 3}));
    EXPECT_EQ(valuesOf<float>(zero.value()[0]), std::vector<float>(6, 0.0f));
    auto sevens = run({"ConstantOfShape",
                       {int64s({3})},
                       [](auto& n) { n.tensor("value", test::makeTensor("v", DataType::Int32, {1}, {7})); },
                       13,
                       {DataType::Int32}});
    ASSERT_TRUE(sevens.isOk()) << sevens.status().message();
    EXPECT_EQ(valuesOf<int32_t>(sevens.value()[0]), (std::vector<int32_t>{7, 7, 7}));
}

TEST(ConstantOfShapeKernelTest, ZeroSizeShape) {
    auto out = run({"ConstantOfShape", {int64s({2, 0})}, [](auto&) {}, 13, {DataType::Float}});
    ASSERT_TRUE(out.isOk()) << out.status().message();
    EXPECT_EQ(out.value()[0].elementCount(), 0);
}

TEST(EyeLikeKernelTest, OffsetDiagonalAndDtypeAttribute) {
    const Tensor x = test::floats({2, 3}, std::vector<float>(6, 5.0f));
    auto out = run({"EyeLike", {x}, [](auto& n) { n.i("k", 1).i("dtype", 7); }, 13, {DataType::Int64}});
    ASSERT_TRUE(out.isOk()) << out.status().message();
    EXPECT_EQ(valuesOf<int64_t>(out.value()[0]), (std::vector<int64_t>{0, 1, 0, 0, 0, 1}));
    auto below = run({"EyeLike", {x}, [](auto& n) { n.i("k", -1); }});
    ASSERT_TRUE(below.isOk()) << below.status().message();
    EXPECT_EQ(valuesOf<float>(below.value()[0]), (std::vector<float>{0, 0, 0, 1, 0, 0}));
}

TEST(RangeKernelTest, NegativeDeltaAndEmptyRanges) {
    auto down = run({"Range", {int64s({}, {10}), int64s({}, {4}), int64s({}, {-3})}});
    ASSERT_TRUE(down.isOk()) << down.status().message();
    EXPECT_EQ(valuesOf<int64_t>(down.value()[0]), (std::vector<int64_t>{10, 7}));
    auto empty = run({"Range", {test::floats({}, {1}), test::floats({}, {0}), test::floats({}, {1})}});
    ASSERT_TRUE(empty.isOk()) << empty.status().message();
    EXPECT_EQ(empty.value()[0].shape(), (Shape{0}));
    auto frac = run({"Range", {test::floats({}, {0}), test::floats({}, {1}), test::floats({}, {0.25f})}});
    ASSERT_TRUE(frac.isOk()) << frac.status().message();
    EXPECT_EQ(valuesOf<float>(frac.value()[0]), (std::vector<float>{0, 0.25f, 0.5f, 0.75f}));
}

TEST(RangeKernelTest, ZeroDeltaFails) {
    EXPECT_FALSE(run({"Range", {int64s({}, {0}), int64s({}, {4}), int64s({}, {0})}}).isOk());
}

}  // namespace
}  // namespace ql
