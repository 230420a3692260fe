#include <gtest/gtest.h>

#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql {
namespace {

using test::bools;
using test::NodeSpec;
using test::runOne;
using test::valuesOf;

TEST(LogicalKernelTest, AndOrXorTruthTablesWithBroadcast) {
    const Tensor a = bools({2, 2}, {0, 0, 1, 1}), b = bools({2}, {0, 1});
    auto run = [&](const std::string& op) {
        return valuesOf<uint8_t>(runOne(NodeSpec{op, {{"a", a}, {"b", b}}}).value());
    };
    EXPECT_EQ(run("And"), (std::vector<uint8_t>{0, 0, 0, 1}));
    EXPECT_EQ(run("Or"), (std::vector<uint8_t>{0, 1, 1, 1}));
    EXPECT_EQ(run("Xor"), (std::vector<uint8_t>{0, 1, 1, 0}));
}

TEST(LogicalKernelTest, Not) {
    auto y = runOne(NodeSpec{"Not", {{"x", bools({3}, {1, 0, 1})}}});
    ASSERT_TRUE(y.isOk());
    EXPECT_EQ(valuesOf<uint8_t>(y.value()), (std::vector<uint8_t>{0, 1, 0}));
}

}  // namespace
}  // namespace ql
