#include <gtest/gtest.h>

#include "core/common/half.h"
#include "tests/core/exec/kernels/shape_test_util.h"

namespace ql {
namespace {

using test::int64s;
using test::run;
using test::valuesOf;

TEST(ConcatKernelTest, NegativeAxisAndAZeroSizeInput) {
    const Tensor a = int64s({2, 1}, {1, 2}), b = int64s({2, 0}, {}), c = int64s({2, 2}, {3, 4, 5, 6});
    auto out = run({"Concat", {a, b, c}, [](auto& n) { n.i("axis", -1); }});
    ASSERT_TRUE(out.isOk()) << out.status().message();
    EXPECT_EQ(out.value()[0].shape(), (Shape{2, 3}));
    EXPECT_EQ(valuesOf<int64_t>(out.value()[0]), (std::vector<int64_t>{1, 3, 4, 2, 5, 6}));
}

TEST(ConcatKernelTest, BoolAndFloat16MoveAsBytes) {
    const Tensor t = test::makeTensor<bool>(DataType::Bool, {2}, {true, false});
    auto b = run({"Concat", {t, t}, [](auto& n) { n.i("axis", 0); }});
    ASSERT_TRUE(b.isOk()) << b.status().message();
    EXPECT_EQ(valuesOf<bool>(b.value()[0]), (std::vector<bool>{true, false, true, false}));
    const Tensor h = test::makeTensor<uint16_t>(DataType::Float16, {1}, {floatToHalf(2.5f)});
    auto f = run({"Concat", {h, h}, [](auto& n) { n.i("axis", 0); }});
    ASSERT_TRUE(f.isOk()) << f.status().message();
    EXPECT_EQ(halfToFloat(valuesOf<uint16_t>(f.value()[0])[1]), 2.5f);
}

TEST(SplitKernelTest, SplitAsAttributeBeforeOpset13) {
    const Tensor x = test::floats({5}, {1, 2, 3, 4, 5});
    auto out = run({"Split", {x}, [](auto& n) { n.ints("split", {2, 3}); }, 11, {DataType::Float, DataType::Float}});
    ASSERT_TRUE(out.isOk()) << out.status().message();
    EXPECT_EQ(valuesOf<float>(out.value()[0]), (std::vector<float>{1, 2}));
    EXPECT_EQ(valuesOf<float>(out.value()[1]), (std::vector<float>{3, 4, 5}));
}

TEST(SplitKernelTest, SplitAsInputOnAnInnerAxis) {
    const Tensor x = test::floats({2, 3}, {1, 2, 3, 4, 5, 6});
    auto out =
        run({"Split", {x, int64s({1, 2})}, [](auto& n) { n.i("axis", -1); }, 13, {DataType::Float, DataType::Float}});
    ASSERT_TRUE(out.isOk()) << out.status().message();
    EXPECT_EQ(valuesOf<float>(out.value()[0]), (std::vector<float>{1, 4}));
    EXPECT_EQ(valuesOf<float>(out.value()[1]), (std::vector<float>{2, 3, 5, 6}));
}

TEST(SplitKernelTest, EqualPartsWhenNoSizesAreGiven) {
    const Tensor x = test::floats({6}, {1, 2, 3, 4, 5, 6});
    auto out = run({"Split", {x}, [](auto&) {}, 13, {DataType::Float, DataType::Float, DataType::Float}});
    ASSERT_TRUE(out.isOk()) << out.status().message();
    EXPECT_EQ(valuesOf<float>(out.value()[2]), (std::vector<float>{5, 6}));
}

TEST(SplitKernelTest, SizesThatDoNotCoverTheAxisFail) {
    const Tensor x = test::floats({4}, {1, 2, 3, 4});
    EXPECT_FALSE(run({"Split", {x, int64s({1, 1})}, [](auto&) {}, 13, {DataType::Float, DataType::Float}}).isOk());
}

}  // namespace
}  // namespace ql
