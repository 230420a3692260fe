#include <gtest/gtest.h>

#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql {
namespace {

using test::floats;
using test::NodeSpec;

// Y = alpha * op(A) op(B) + beta * C with C broadcast from `cShape`, in plain loops.
std::vector<float> referenceGemm(const std::vector<float>& a, const std::vector<float>& b, const std::vector<float>& c,
                                 const Shape& cShape, int64_t m, int64_t n, int64_t k, bool ta, bool tb, float alpha,
                                 float beta) {
    std::vector<float> y(static_cast<size_t>(m * n));
    const int64_t cm = cShape.size() == 2 ? cShape[0] : 1, cn = cShape.empty() ? 1 : cShape.back();
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) {
            double acc = 0;
            for (int64_t p = 0; p < k; ++p) acc += a[ta ? p * m + i : i * k + p] * b[tb ? j * k + p : p * n + j];
            const float cv = c.empty() ? 0.0f : c[(cm == 1 ? 0 : i) * cn + (cn == 1 ? 0 : j)];
            y[i * n + j] = alpha * static_cast<float>(acc) + beta * cv;
        }
    return y;
}

void expectGemm(int64_t m, int64_t n, int64_t k, bool ta, bool tb, float alpha, float beta, const Shape& cShape,
                bool withC) {
    const auto a = test::seededFloats(static_cast<size_t>(m * k), 21);
    const auto b = test::seededFloats(static_cast<size_t>(k * n), 22);
    const auto c =
        withC ? test::seededFloats(static_cast<size_t>(shapeElementCount(cShape)), 23) : std::vector<float>();
    NamedTensors inputs = {{"a", floats(ta ? Shape{k, m} : Shape{m, k}, a)},
                           {"b", floats(tb ? Shape{n, k} : Shape{k, n}, b)}};
    if (withC) inputs.emplace_back("c", floats(cShape, c));
    auto y = test::runOne(NodeSpec("Gemm", inputs, {}, 17, [=](test::NodeBuilder& node) {
        node.i("transA", ta).i("transB", tb).f("alpha", alpha).f("beta", beta);
    }));
    ASSERT_TRUE(y) << y.status().message();
    EXPECT_EQ(y->shape(), (Shape{m, n}));
    test::expectNear(*y, referenceGemm(a, b, c, cShape, m, n, k, ta, tb, alpha, withC ? beta : 0.0f), 1e-4f);
}

TEST(GemmTest, HandComputedWithAlphaBetaAndRowBias) {
    auto y = test::runOne(NodeSpec(
        "Gemm",
        {{"a", floats({2, 2}, {1, 2, 3, 4})}, {"b", floats({2, 2}, {1, 0, 0, 1})}, {"c", floats({2}, {10, 20})}}, {},
        17, [](test::NodeBuilder& n) { n.f("alpha", 2).f("beta", 0.5f); }));
    ASSERT_TRUE(y) << y.status().message();
    test::expectNear(*y, {7, 14, 11, 18});
}

TEST(GemmTest, EveryTransposeCombinationAtOddSizes) {
    for (bool ta : {false, true})
        for (bool tb : {false, true}) expectGemm(5, 7, 3, ta, tb, 1.0f, 1.0f, {5, 7}, true);
}

TEST(GemmTest, CBroadcastsFromScalarRowAndColumn) {
    expectGemm(4, 6, 5, false, true, 0.5f, 2.0f, {}, true);
    expectGemm(4, 6, 5, false, false, 1.0f, 1.0f, {1}, true);
    expectGemm(4, 6, 5, true, false, 1.0f, -1.0f, {6}, true);
    expectGemm(4, 6, 5, false, false, 1.0f, 3.0f, {4, 1}, true);
}

TEST(GemmTest, WithoutCAndWithBetaZero) {
    expectGemm(3, 2, 4, false, false, 1.5f, 1.0f, {}, false);
    expectGemm(3, 2, 4, false, false, 1.0f, 0.0f, {3, 2}, true);
}

TEST(GemmTest, IntegerTypesUseExactArithmetic) {
    auto y = test::runOne(NodeSpec("Gemm", {{"a", test::int64s({2, 2}, {1, 2, 3, 4})},
                                            {"b", test::int64s({2, 1}, {100000000000, 1})},
                                            {"c", test::int64s({1}, {5})}}));
    ASSERT_TRUE(y) << y.status().message();
    EXPECT_EQ(test::valuesOf<int64_t>(*y), (std::vector<int64_t>{100000000007, 300000000009}));
}

TEST(GemmTest, IncompatibleCFailsNamingTheNode) {
    auto y = test::runOne(NodeSpec(
        "Gemm",
        {{"a", floats({2, 2}, {1, 2, 3, 4})}, {"b", floats({2, 2}, {1, 0, 0, 1})}, {"c", floats({3}, {1, 2, 3})}}));
    ASSERT_FALSE(y);
    EXPECT_NE(y.status().message().find("Op (Gemm)"), std::string::npos) << y.status().message();
}

}  // namespace
}  // namespace ql
