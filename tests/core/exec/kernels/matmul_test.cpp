#include "core/exec/kernels/matmul.h"

#include <gtest/gtest.h>

#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql {
namespace {

using test::floats;
using test::NodeSpec;

Result<Tensor> matMul(const Tensor& a, const Tensor& b) {
    return test::runOne(NodeSpec("MatMul", {{"a", a}, {"b", b}}));
}

TEST(MatMulTest, HandComputed2D) {
    auto y = matMul(floats({2, 3}, {1, 2, 3, 4, 5, 6}), floats({3, 1}, {1, 0, -1}));
    ASSERT_TRUE(y) << y.status().message();
    EXPECT_EQ(y->shape(), (Shape{2, 1}));
    test::expectNear(*y, {-2, -2});
}

TEST(MatMulTest, OneDimensionalOperandsArePromotedAndDropped) {
    auto vm = matMul(floats({2}, {1, 2}), floats({2, 3}, {1, 2, 3, 4, 5, 6}));
    auto mv = matMul(floats({2, 3}, {1, 2, 3, 4, 5, 6}), floats({3}, {1, 1, 1}));
    auto vv = matMul(floats({3}, {1, 2, 3}), floats({3}, {4, 5, 6}));
    ASSERT_TRUE(vm && mv && vv);
    EXPECT_EQ(vm->shape(), (Shape{3}));
    test::expectNear(*vm, {9, 12, 15});
    EXPECT_EQ(mv->shape(), (Shape{2}));
    test::expectNear(*mv, {6, 15});
    EXPECT_EQ(vv->shape(), (Shape{}));
    test::expectNear(*vv, {32});
}

TEST(MatMulTest, BatchDimensionsBroadcastBothWays) {
    // a [2,1,2,3] x b [3,3,2]: batch [2,3]; each product checked against a loop.
    const auto av = test::seededFloats(12, 31), bv = test::seededFloats(18, 32);
    auto y = matMul(floats({2, 1, 2, 3}, av), floats({3, 3, 2}, bv));
    ASSERT_TRUE(y) << y.status().message();
    ASSERT_EQ(y->shape(), (Shape{2, 3, 2, 2}));
    std::vector<float> expected;
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 3; ++j)
            for (int r = 0; r < 2; ++r)
                for (int c = 0; c < 2; ++c) {
                    float acc = 0;
                    for (int p = 0; p < 3; ++p) acc += av[i * 6 + r * 3 + p] * bv[j * 6 + p * 2 + c];
                    expected.push_back(acc);
                }
    test::expectNear(*y, expected, 1e-5f);
}

TEST(MatMulTest, IntegerAndDoubleUseTheLoop) {
    auto yi = matMul(test::makeTensor<int32_t>(DataType::Int32, {1, 2}, {3, 4}),
                     test::makeTensor<int32_t>(DataType::Int32, {2, 1}, {5, 6}));
    ASSERT_TRUE(yi) << yi.status().message();
    EXPECT_EQ(test::valuesOf<int32_t>(*yi), (std::vector<int32_t>{39}));
    auto yd = matMul(test::makeTensor<double>(DataType::Double, {1, 2}, {0.5, 0.25}),
                     test::makeTensor<double>(DataType::Double, {2}, {2, 4}));
    ASSERT_TRUE(yd) << yd.status().message();
    EXPECT_EQ(test::valuesOf<double>(*yd), (std::vector<double>{2.0}));
}

TEST(MatMulTest, ZeroSizedInnerDimensionGivesZeros) {
    auto y = matMul(floats({2, 0}, {}), floats({0, 3}, {}));
    ASSERT_TRUE(y) << y.status().message();
    EXPECT_EQ(y->shape(), (Shape{2, 3}));
    test::expectNear(*y, std::vector<float>(6, 0.0f));
}

TEST(MatMulTest, MismatchedInnerOrBatchDimensionsFail) {
    EXPECT_FALSE(matMul(floats({2, 3}, std::vector<float>(6)), floats({2, 3}, std::vector<float>(6))));
    EXPECT_FALSE(matMul(floats({2, 1, 1}, std::vector<float>(2)), floats({3, 1, 1}, std::vector<float>(3))));
}

TEST(MatMulTest, ConstantRightOperandIsReusedAcrossBatchSizes) {
    const auto w = test::seededFloats(12, 41);
    test::ModelBuilder b;
    b.input("x", DataType::Float, {-1, 4});
    b.initializer("w", {4, 3}, w);
    b.node("MatMul", {"x", "w"}, {"y"});
    b.output("y");
    auto model = b.load();
    auto exec = Executor::create(model->graph());
    ASSERT_TRUE(exec);
    for (int64_t rows : {1, 5, 1}) {
        const auto x = test::seededFloats(static_cast<size_t>(rows * 4), 42);
        std::vector<float> expected;
        for (int64_t r = 0; r < rows; ++r)
            for (int c = 0; c < 3; ++c) {
                float acc = 0;
                for (int p = 0; p < 4; ++p) acc += x[r * 4 + p] * w[p * 3 + c];
                expected.push_back(acc);
            }
        auto out = (*exec)->run({{"x", floats({rows, 4}, x)}});
        ASSERT_TRUE(out) << out.status().message();
        test::expectNear((*out)[0].second, expected, 1e-5f);
    }
}

}  // namespace
}  // namespace ql
