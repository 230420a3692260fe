#include <gtest/gtest.h>

#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql {
namespace {

using test::NodeBuilder;
using test::NodeSpec;
using test::runOne;
using test::valuesOf;

TEST(ModKernelTest, IntegerModTakesTheDivisorsSign) {
    const Tensor a = test::int64s({4}, {-4, 7, 5, -9}), b = test::int64s({4}, {3, -3, 0, -2});
    auto y = runOne(NodeSpec{"Mod", {{"a", a}, {"b", b}}});
    ASSERT_TRUE(y.isOk()) << y.status().message();
    EXPECT_EQ(valuesOf<int64_t>(y.value()), (std::vector<int64_t>{2, -2, 0, -1}));
}

TEST(ModKernelTest, FmodTakesTheDividendsSign) {
    auto fmod = [](NodeBuilder& n) { n.i("fmod", 1); };
    const Tensor a = test::int64s({3}, {-4, 7, -9}), b = test::int64s({3}, {3, -3, -2});
    auto y = runOne(NodeSpec{"Mod", {{"a", a}, {"b", b}}, {}, 17, fmod});
    ASSERT_TRUE(y.isOk());
    EXPECT_EQ(valuesOf<int64_t>(y.value()), (std::vector<int64_t>{-1, 1, -1}));
    auto f =
        runOne(NodeSpec{"Mod", {{"a", test::floats({2}, {-4.5f, 5.5f})}, {"b", test::floats({1}, {2})}}, {}, 17, fmod});
    ASSERT_TRUE(f.isOk());
    EXPECT_EQ(valuesOf<float>(f.value()), (std::vector<float>{-0.5f, 1.5f}));
}

}  // namespace
}  // namespace ql
