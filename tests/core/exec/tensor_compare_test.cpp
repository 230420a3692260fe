#include "core/exec/tensor_compare.h"

#include <gtest/gtest.h>

#include <cmath>

namespace ql {
namespace {

Tensor floats(Shape shape, std::vector<float> v) {
    return Tensor::fromVector<float>(DataType::Float, std::move(shape), v);
}

TEST(TensorCompareTest, WithinRelativeToleranceMatches) {
    EXPECT_TRUE(compareTensors(floats({2}, {1000.0f, 1.0f}), floats({2}, {1000.9f, 1.0f})).matches);
}

TEST(TensorCompareTest, BeyondToleranceFailsNamingTheWorstPosition) {
    const auto c = compareTensors(floats({2, 2}, {1, 2, 3, 4}), floats({2, 2}, {1, 2.01f, 3, 4.5f}));
    EXPECT_FALSE(c.matches);
    EXPECT_EQ(c.mismatches, 2);
    EXPECT_NEAR(c.maxAbsError, 0.5, 1e-6);
    EXPECT_NE(c.reason.find("[1,1]"), std::string::npos) << c.reason;
}

TEST(TensorCompareTest, AbsoluteToleranceCoversValuesNearZero) {
    EXPECT_TRUE(compareTensors(floats({1}, {0.0f}), floats({1}, {5e-6f})).matches);
    EXPECT_FALSE(compareTensors(floats({1}, {0.0f}), floats({1}, {5e-5f})).matches);
}

TEST(TensorCompareTest, NanEqualsNanButNotANumber) {
    EXPECT_TRUE(compareTensors(floats({1}, {NAN}), floats({1}, {NAN})).matches);
    EXPECT_FALSE(compareTensors(floats({1}, {NAN}), floats({1}, {0.0f})).matches);
    EXPECT_FALSE(compareTensors(floats({1}, {INFINITY}), floats({1}, {-INFINITY})).matches);
    EXPECT_TRUE(compareTensors(floats({1}, {INFINITY}), floats({1}, {INFINITY})).matches);
}

TEST(TensorCompareTest, IntegersAreComparedExactly) {
    const auto a = Tensor::fromVector<int64_t>(DataType::Int64, {2}, {100000000, 2});
    const auto b = Tensor::fromVector<int64_t>(DataType::Int64, {2}, {100000001, 2});
    EXPECT_FALSE(compareTensors(a, b).matches);
    EXPECT_TRUE(compareTensors(a, a).matches);
}

TEST(TensorCompareTest, DtypeAndShapeMismatchesAreReported) {
    const auto f = floats({2}, {1, 2});
    const auto i = Tensor::fromVector<int32_t>(DataType::Int32, {2}, {1, 2});
    EXPECT_NE(compareTensors(f, i).reason.find("INT32"), std::string::npos);
    EXPECT_NE(compareTensors(f, floats({1, 2}, {1, 2})).reason.find("[1,2]"), std::string::npos);
}

TEST(TensorCompareTest, ElementPositionIsRowMajor) {
    EXPECT_EQ(elementPosition({2, 3, 4}, 23), "[1,2,3]");
    EXPECT_EQ(elementPosition({}, 0), "[]");
}

}  // namespace
}  // namespace ql
