#include <gtest/gtest.h>

#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql {
namespace {

using test::NodeBuilder;
using test::NodeSpec;
using test::runOne;
using test::valuesOf;

TEST(BitShiftKernelTest, LeftAndRightWithBroadcastAndOversizedShift) {
    const Tensor x = test::makeTensor<uint8_t>(DataType::UInt8, {3}, {16, 4, 1});
    const Tensor s = test::makeTensor<uint8_t>(DataType::UInt8, {3}, {1, 2, 9});
    auto left =
        runOne(NodeSpec{"BitShift", {{"x", x}, {"s", s}}, {}, 11, [](NodeBuilder& n) { n.s("direction", "LEFT"); }});
    ASSERT_TRUE(left.isOk()) << left.status().message();
    EXPECT_EQ(valuesOf<uint8_t>(left.value()), (std::vector<uint8_t>{32, 16, 0}));
    const Tensor one = test::makeTensor<uint32_t>(DataType::UInt32, {1}, {2});
    const Tensor big = test::makeTensor<uint32_t>(DataType::UInt32, {2}, {16, 7});
    auto right = runOne(
        NodeSpec{"BitShift", {{"x", big}, {"s", one}}, {}, 11, [](NodeBuilder& n) { n.s("direction", "RIGHT"); }});
    ASSERT_TRUE(right.isOk()) << right.status().message();
    EXPECT_EQ(valuesOf<uint32_t>(right.value()), (std::vector<uint32_t>{4, 1}));
}

}  // namespace
}  // namespace ql
