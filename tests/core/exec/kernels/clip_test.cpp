#include <gtest/gtest.h>

#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql {
namespace {

using test::floats;
using test::NodeBuilder;
using test::NodeSpec;
using test::runOne;
using test::valuesOf;

const Tensor kX = floats({5}, {-3, -1, 0, 1, 3});

TEST(ClipKernelTest, MinMaxAreInputs) {
    auto y = runOne(NodeSpec{"Clip", {{"x", kX}, {"lo", floats({}, {-1.5f})}, {"hi", floats({}, {2})}}});
    ASSERT_TRUE(y.isOk()) << y.status().message();
    EXPECT_EQ(valuesOf<float>(y.value()), (std::vector<float>{-1.5f, -1, 0, 1, 2}));
}

TEST(ClipKernelTest, OmittedMinOrMaxIsUnbounded) {
    auto onlyMax = runOne(NodeSpec{"Clip", {{"x", kX}, {"", Tensor()}, {"hi", floats({}, {0})}}});
    ASSERT_TRUE(onlyMax.isOk()) << onlyMax.status().message();
    EXPECT_EQ(valuesOf<float>(onlyMax.value()), (std::vector<float>{-3, -1, 0, 0, 0}));
    auto none = runOne(NodeSpec{"Clip", {{"x", kX}}});
    ASSERT_TRUE(none.isOk());
    EXPECT_EQ(valuesOf<float>(none.value()), (std::vector<float>{-3, -1, 0, 1, 3}));
}

TEST(ClipKernelTest, AttributeFormBeforeOpset11) {
    auto y = runOne(NodeSpec{"Clip", {{"x", kX}}, {}, 10, [](NodeBuilder& n) { n.f("min", -2).f("max", 0.5f); }});
    ASSERT_TRUE(y.isOk()) << y.status().message();
    EXPECT_EQ(valuesOf<float>(y.value()), (std::vector<float>{-2, -1, 0, 0.5f, 0.5f}));
}

TEST(ClipKernelTest, MinAboveMaxGivesMax) {
    auto y = runOne(NodeSpec{"Clip", {{"x", kX}, {"lo", floats({}, {2})}, {"hi", floats({}, {1})}}});
    ASSERT_TRUE(y.isOk());
    EXPECT_EQ(valuesOf<float>(y.value()), (std::vector<float>{1, 1, 1, 1, 1}));
}

TEST(ClipKernelTest, IntegerInputAndZeroSizeDim) {
    auto y = runOne(NodeSpec{
        "Clip",
        {{"x", test::int64s({3}, {-5, 5, 50})}, {"lo", test::int64s({}, {0})}, {"hi", test::int64s({}, {10})}}});
    ASSERT_TRUE(y.isOk()) << y.status().message();
    EXPECT_EQ(valuesOf<int64_t>(y.value()), (std::vector<int64_t>{0, 5, 10}));
    auto empty = runOne(NodeSpec{"Clip", {{"x", Tensor(DataType::Float, {0, 4})}, {"lo", floats({}, {0})}}});
    ASSERT_TRUE(empty.isOk());
    EXPECT_EQ(empty.value().shape(), (Shape{0, 4}));
}

TEST(ClipKernelTest, NonScalarBoundFailsNamingIt) {
    auto y = runOne(NodeSpec{"Clip", {{"x", kX}, {"lo", floats({2}, {0, 1})}}});
    ASSERT_FALSE(y.isOk());
    EXPECT_NE(y.status().message().find("min must be a scalar"), std::string::npos) << y.status().message();
}

}  // namespace
}  // namespace ql
