#include "core/exec/kernels/qlinear_binary.h"

#include <gtest/gtest.h>

#include "tests/core/exec/kernels/qlinear_contrib_test_util.h"

namespace ql::test {

namespace {

NamedTensors operands(const Tensor& a, const Tensor& b) {
    return {{"a", a},
            {"sa", floats({}, {0.5f})},
            {"za", uint8s({}, {10})},
            {"b", b},
            {"sb", floats({}, {0.25f})},
            {"zb", uint8s({}, {4})},
            {"sc", floats({}, {1.0f})},
            {"zc", uint8s({}, {100})}};
}

}  // namespace

TEST(QLinearBinaryTest, AddAndMulWithBroadcastingRoundAndSaturate) {
    // a - za = {0, 2, 4, -10, 200} (x 0.5), b - zb = 8 (x 0.25): sums 2, 3, 4, -3, 102; products 0, 2, 4, -10, 200,
    // + zc = 100 (the last saturates).
    const Tensor a = uint8s({5}, {10, 12, 14, 0, 210}), b = uint8s({1}, {12});
    auto add = runContrib("QLinearAdd", operands(a, b), DataType::UInt8);
    ASSERT_TRUE(add) << add.status().message();
    EXPECT_EQ(valuesOf<uint8_t>(*add), (std::vector<uint8_t>{102, 103, 104, 97, 202}));
    auto mul = runContrib("QLinearMul", operands(a, b), DataType::UInt8);
    ASSERT_TRUE(mul) << mul.status().message();
    EXPECT_EQ(valuesOf<uint8_t>(*mul), (std::vector<uint8_t>{100, 102, 104, 90, 255}));
}

}  // namespace ql::test
