#include <gtest/gtest.h>

#include "tests/core/exec/kernels/shape_test_util.h"

namespace ql {
namespace {

using test::int64s;
using test::run;
using test::valuesOf;

const Tensor kRow = test::floats({1, 3}, {1, 2, 3});

std::vector<float> pad(const std::string& mode, std::vector<int64_t> pads, Tensor value = {}) {
    auto out = run({"Pad", {kRow, int64s(pads), value}, [&](auto& n) { n.s("mode", mode); }});
    EXPECT_TRUE(out.isOk()) << out.status().message();
    return out.isOk() ? valuesOf<float>(out.value()[0]) : std::vector<float>{};
}

TEST(PadKernelTest, ConstantUsesTheOptionalValueOrZero) {
    EXPECT_EQ(pad("constant", {0, 1, 0, 2}), (std::vector<float>{0, 1, 2, 3, 0, 0}));
    EXPECT_EQ(pad("constant", {0, 1, 0, 0}, test::floats({}, {-7})), (std::vector<float>{-7, 1, 2, 3}));
}

TEST(PadKernelTest, ReflectExcludesTheEdgeAndEdgeRepeatsIt) {
    EXPECT_EQ(pad("reflect", {0, 2, 0, 2}), (std::vector<float>{3, 2, 1, 2, 3, 2, 1}));
    EXPECT_EQ(pad("edge", {0, 2, 0, 1}), (std::vector<float>{1, 1, 1, 2, 3, 3}));
}

TEST(PadKernelTest, TwoDimensionalReflectAndConstantRows) {
    const Tensor x = test::floats({2, 2}, {1, 2, 3, 4});
    auto reflect = run({"Pad", {x, int64s({1, 1, 1, 0})}, [](auto& n) { n.s("mode", "reflect"); }});
    ASSERT_TRUE(reflect.isOk()) << reflect.status().message();
    EXPECT_EQ(reflect.value()[0].shape(), (Shape{4, 3}));
    EXPECT_EQ(valuesOf<float>(reflect.value()[0]), (std::vector<float>{4, 3, 4, 2, 1, 2, 4, 3, 4, 2, 1, 2}));
    auto constant = run({"Pad", {x, int64s({1, 1, 0, 0})}});
    ASSERT_TRUE(constant.isOk()) << constant.status().message();
    EXPECT_EQ(valuesOf<float>(constant.value()[0]), (std::vector<float>{0, 0, 0, 0, 1, 2, 0, 3, 4}));
}

TEST(PadKernelTest, NegativePadsCrop) {
    EXPECT_EQ(pad("constant", {0, -1, 0, 1}), (std::vector<float>{2, 3, 0}));
}

TEST(PadKernelTest, PadsAndValueAsAttributesBeforeOpset11) {
    auto out = run({"Pad", {kRow}, [](auto& n) { n.ints("pads", {1, 0, 0, 0}).f("value", 9.0f); }, 10});
    ASSERT_TRUE(out.isOk()) << out.status().message();
    EXPECT_EQ(out.value()[0].shape(), (Shape{2, 3}));
    EXPECT_EQ(valuesOf<float>(out.value()[0]), (std::vector<float>{9, 9, 9, 1, 2, 3}));
}

TEST(PadKernelTest, Int64DataKeepsItsType) {
    auto out = run({"Pad", {int64s({2}, {5, 6}), int64s({1, 1})}, [](auto& n) { n.s("mode", "edge"); }});
    ASSERT_TRUE(out.isOk()) << out.status().message();
    EXPECT_EQ(valuesOf<int64_t>(out.value()[0]), (std::vector<int64_t>{5, 5, 6, 6}));
}

TEST(PadKernelTest, WrongPadsLengthFails) {
    EXPECT_FALSE(run({"Pad", {kRow, int64s({1, 1})}}).isOk());
}

}  // namespace
}  // namespace ql
