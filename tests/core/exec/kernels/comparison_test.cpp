#include <gtest/gtest.h>

#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql {
namespace {

using test::NodeSpec;
using test::runOne;
using test::valuesOf;

std::vector<uint8_t> compare(const std::string& op, const Tensor& a, const Tensor& b) {
    auto y = runOne(NodeSpec{op, {{"a", a}, {"b", b}}, {DataType::Bool}});
    EXPECT_TRUE(y.isOk()) << y.status().message();
    return y.isOk() ? valuesOf<uint8_t>(y.value()) : std::vector<uint8_t>{};
}

TEST(ComparisonKernelTest, EveryOpWithScalarBroadcast) {
    const Tensor a = test::floats({4}, {1, 2, 3, 4}), b = test::floats({}, {2.5f});
    EXPECT_EQ(compare("Equal", a, test::floats({}, {2})), (std::vector<uint8_t>{0, 1, 0, 0}));
    EXPECT_EQ(compare("Greater", a, b), (std::vector<uint8_t>{0, 0, 1, 1}));
    EXPECT_EQ(compare("Less", a, b), (std::vector<uint8_t>{1, 1, 0, 0}));
    EXPECT_EQ(compare("GreaterOrEqual", a, test::floats({}, {3})), (std::vector<uint8_t>{0, 0, 1, 1}));
    EXPECT_EQ(compare("LessOrEqual", a, test::floats({}, {3})), (std::vector<uint8_t>{1, 1, 1, 0}));
}

TEST(ComparisonKernelTest, IntegerAndBoolInputs) {
    const Tensor a = test::int64s({2, 2}, {1, 5, -3, 7}), b = test::int64s({2, 1}, {5, -3});
    EXPECT_EQ(compare("Equal", a, b), (std::vector<uint8_t>{0, 1, 1, 0}));
    EXPECT_EQ(compare("Equal", test::bools({2}, {1, 0}), test::bools({2}, {1, 1})), (std::vector<uint8_t>{1, 0}));
}

TEST(ComparisonKernelTest, MixedElementTypesFail) {
    auto y = runOne(NodeSpec{"Less", {{"a", test::floats({1}, {1})}, {"b", test::int64s({1}, {1})}}, {DataType::Bool}});
    EXPECT_FALSE(y.isOk());
}

}  // namespace
}  // namespace ql
