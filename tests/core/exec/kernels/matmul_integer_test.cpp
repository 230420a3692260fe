#include "core/exec/kernels/matmul_integer.h"

#include <gtest/gtest.h>

#include "tests/core/exec/kernels/integer_test_util.h"

namespace ql::test {

namespace {

std::vector<int64_t> int64sOf(const Tensor& t) {
    std::vector<int64_t> out;
    for (int64_t i = 0; i < t.elementCount(); ++i) out.push_back(t.data<int32_t>()[i]);
    return out;
}

}  // namespace

TEST(MatMulIntegerTest, SpecExample) {
    const Tensor a = uint8s({4, 3}, {11, 7, 3, 10, 6, 2, 9, 5, 1, 8, 4, 0});
    const Tensor b = uint8s({3, 2}, {1, 4, 2, 5, 3, 6});
    auto out = runNode(NodeSpec(
        "MatMulInteger", {{"a", a}, {"b", b}, {"a_zero_point", uint8s({}, {12})}, {"b_zero_point", uint8s({}, {0})}},
        {DataType::Int32}, 10));
    ASSERT_TRUE(out) << out.status().message();
    EXPECT_EQ(int64sOf((*out)[0]), (std::vector<int64_t>{-38, -83, -44, -98, -50, -113, -56, -128}));
}

TEST(MatMulIntegerTest, PerRowAndColumnZeroPointsWithBatchBroadcast) {
    const int64_t batch = 3, m = 2, k = 5, n = 4;
    const Tensor a = randomEightBit(DataType::Int8, {batch, m, k}, 5);
    const Tensor b = randomEightBit(DataType::UInt8, {k, n}, 6);
    const std::vector<int64_t> aZero{-7, 20}, bZero{0, 255, 128, 3};
    auto out = runNode(NodeSpec(
        "MatMulInteger",
        {{"a", a}, {"b", b}, {"a_zero_point", int8s({2}, {-7, 20})}, {"b_zero_point", uint8s({4}, {0, 255, 128, 3})}},
        {DataType::Int32}, 10));
    ASSERT_TRUE(out) << out.status().message();
    EXPECT_EQ((*out)[0].shape(), (Shape{batch, m, n}));
    const std::vector<float> av = a.toFloats(), bv = b.toFloats();
    std::vector<int64_t> expected;
    for (int64_t s = 0; s < batch; ++s)
        for (int64_t i = 0; i < m; ++i)
            for (int64_t j = 0; j < n; ++j) {
                int64_t acc = 0;
                for (int64_t p = 0; p < k; ++p)
                    acc += (static_cast<int64_t>(av[static_cast<size_t>((s * m + i) * k + p)]) -
                            aZero[static_cast<size_t>(i)]) *
                           (static_cast<int64_t>(bv[static_cast<size_t>(p * n + j)]) - bZero[static_cast<size_t>(j)]);
                expected.push_back(acc);
            }
    EXPECT_EQ(int64sOf((*out)[0]), expected);
}

TEST(MatMulIntegerTest, SumsBeyondFloatPrecisionStayExact) {
    // K = 20,000 products of 255 * 255 add up to 1,300,500,000, far past 2^24: float accumulators would round.
    const int64_t k = 20000;
    const Tensor a = uint8s({1, k}, std::vector<uint8_t>(k, 255)), b = uint8s({k, 2}, std::vector<uint8_t>(2 * k, 255));
    auto out = runNode(NodeSpec("MatMulInteger", {{"a", a}, {"b", b}}, {DataType::Int32}, 10));
    ASSERT_TRUE(out) << out.status().message();
    EXPECT_EQ(int64sOf((*out)[0]), (std::vector<int64_t>{1300500000, 1300500000}));
    // Odd sums near 2^24 too: one product of 1 on top of 258 of 255 * 255 (16,776,451 + 1).
    std::vector<uint8_t> row(259, 255), column(259, 255);
    row.back() = column.back() = 1;
    auto odd = runNode(NodeSpec("MatMulInteger", {{"a", uint8s({1, 259}, row)}, {"b", uint8s({259, 1}, column)}},
                                {DataType::Int32}, 10));
    ASSERT_TRUE(odd) << odd.status().message();
    EXPECT_EQ(int64sOf((*odd)[0]), (std::vector<int64_t>{258 * 65025 + 1}));
}

TEST(MatMulIntegerTest, AZeroPointOfTheWrongLengthIsAnError) {
    auto out = runNode(NodeSpec("MatMulInteger",
                                {{"a", uint8s({2, 2}, {1, 2, 3, 4})},
                                 {"b", uint8s({2, 2}, {1, 2, 3, 4})},
                                 {"a_zero_point", uint8s({3}, {1, 2, 3})}},
                                {DataType::Int32}, 10));
    ASSERT_FALSE(out);
    EXPECT_NE(out.status().message().find("a_zero_point has 3 values; it must have 1 or 2"), std::string::npos)
        << out.status().message();
}

}  // namespace ql::test
