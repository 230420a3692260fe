#include <gtest/gtest.h>

#include <random>

#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql {
namespace {

using test::floats;
using test::NodeBuilder;
using test::NodeSpec;
using test::runOne;
using test::valuesOf;

Result<Tensor> einsum(const std::string& equation, const NamedTensors& inputs) {
    return runOne(NodeSpec{"Einsum", inputs, {}, 12, [=](NodeBuilder& n) { n.s("equation", equation); }});
}

TEST(EinsumKernelTest, MatrixProductExplicitAndImplicit) {
    const Tensor a = floats({2, 3}, {1, 2, 3, 4, 5, 6}), b = floats({3, 2}, {1, 0, 0, 1, 1, 1});
    for (const std::string eq : {"ij,jk->ik", "ij,jk"}) {
        auto y = einsum(eq, {{"a", a}, {"b", b}});
        ASSERT_TRUE(y.isOk()) << y.status().message();
        EXPECT_EQ(y.value().shape(), (Shape{2, 2}));
        EXPECT_EQ(valuesOf<float>(y.value()), (std::vector<float>{4, 5, 10, 11}));
    }
}

TEST(EinsumKernelTest, TransposeSumAndInnerProduct) {
    const Tensor a = floats({2, 3}, {1, 2, 3, 4, 5, 6});
    EXPECT_EQ(valuesOf<float>(einsum("ij->ji", {{"a", a}}).value()), (std::vector<float>{1, 4, 2, 5, 3, 6}));
    EXPECT_EQ(valuesOf<float>(einsum("ij->i", {{"a", a}}).value()), (std::vector<float>{6, 15}));
    const Tensor v = floats({3}, {1, 2, 3});
    auto dot = einsum("i,i", {{"v", v}, {"w", v}});
    ASSERT_TRUE(dot.isOk());
    EXPECT_EQ(dot.value().shape(), Shape{});
    EXPECT_EQ(valuesOf<float>(dot.value()), (std::vector<float>{14}));
}

TEST(EinsumKernelTest, BatchDiagonalWithEllipsis) {
    auto y = einsum("...ii->...i", {{"a", floats({2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8})}});
    ASSERT_TRUE(y.isOk()) << y.status().message();
    EXPECT_EQ(y.value().shape(), (Shape{2, 2}));
    EXPECT_EQ(valuesOf<float>(y.value()), (std::vector<float>{1, 4, 5, 8}));
}

// Batched matmul at odd shapes against a naive triple loop.
TEST(EinsumKernelTest, RandomBatchMatmulMatchesNaive) {
    std::mt19937 rng(7767517);
    std::uniform_real_distribution<float> dist(-1, 1);
    std::vector<float> a(3 * 5 * 7), b(3 * 7 * 4);
    for (float& v : a) v = dist(rng);
    for (float& v : b) v = dist(rng);
    auto y = einsum("bij,bjk->bik", {{"a", floats({3, 5, 7}, a)}, {"b", floats({3, 7, 4}, b)}});
    ASSERT_TRUE(y.isOk()) << y.status().message();
    std::vector<float> expected;
    for (size_t n = 0; n < 3; ++n)
        for (size_t i = 0; i < 5; ++i)
            for (size_t k = 0; k < 4; ++k) {
                float s = 0;
                for (size_t j = 0; j < 7; ++j) s += a[(n * 5 + i) * 7 + j] * b[(n * 7 + j) * 4 + k];
                expected.push_back(s);
            }
    test::expectNear(y.value(), expected, 1e-5f);
}

TEST(EinsumKernelTest, MismatchedRankFailsNamingTheEquation) {
    auto y = einsum("ijk->i", {{"a", floats({2, 2}, {1, 2, 3, 4})}});
    ASSERT_FALSE(y.isOk());
}

}  // namespace
}  // namespace ql
