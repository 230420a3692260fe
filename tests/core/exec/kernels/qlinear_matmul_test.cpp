#include "core/exec/kernels/qlinear_matmul.h"

#include <gtest/gtest.h>

#include "tests/core/exec/kernels/integer_test_util.h"

namespace ql::test {

namespace {

NamedTensors specInputs(const Tensor& a, const Tensor& b) {
    return {{"a", a},
            {"a_scale", floats({}, {0.0066f})},
            {"a_zero_point", uint8s({}, {113})},
            {"b", b},
            {"b_scale", floats({}, {0.00705f})},
            {"b_zero_point", uint8s({}, {114})},
            {"y_scale", floats({}, {0.0107f})},
            {"y_zero_point", uint8s({}, {118})}};
}

}  // namespace

TEST(QLinearMatMulTest, SpecExample2DAnd3D) {
    const std::vector<uint8_t> av{208, 236, 0, 238, 3, 214, 255, 29};
    const std::vector<uint8_t> bv{152, 51, 244, 60, 26, 255, 0, 127, 246, 127, 254, 247};
    for (int64_t opset : {10, 21}) {
        auto out = runNode(
            NodeSpec("QLinearMatMul", specInputs(uint8s({2, 4}, av), uint8s({4, 3}, bv)), {DataType::UInt8}, opset));
        ASSERT_TRUE(out) << out.status().message();
        EXPECT_EQ(valuesOf<uint8_t>((*out)[0]), (std::vector<uint8_t>{168, 115, 255, 1, 66, 151}));
    }
    std::vector<uint8_t> a3 = av, b3 = bv;
    a3.insert(a3.end(), av.begin(), av.end());
    b3.insert(b3.end(), bv.begin(), bv.end());
    auto out = runNode(
        NodeSpec("QLinearMatMul", specInputs(uint8s({2, 2, 4}, a3), uint8s({2, 4, 3}, b3)), {DataType::UInt8}, 10));
    ASSERT_TRUE(out) << out.status().message();
    EXPECT_EQ(valuesOf<uint8_t>((*out)[0]),
              (std::vector<uint8_t>{168, 115, 255, 1, 66, 151, 168, 115, 255, 1, 66, 151}));
}

TEST(QLinearMatMulTest, Int8OutputSaturatesAndPerColumnScales) {
    // a = [[127]] (zero 0), b = [[127, -128]] (zero 0): products 16129 and -16256, scaled per column.
    NamedTensors in{
        {"a", int8s({1, 1}, {127})},       {"a_scale", floats({}, {1.0f})},          {"a_zero_point", int8s({}, {0})},
        {"b", int8s({1, 2}, {127, -128})}, {"b_scale", floats({2}, {0.001f, 1.0f})}, {"b_zero_point", int8s({}, {0})},
        {"y_scale", floats({}, {1.0f})},   {"y_zero_point", int8s({}, {1})}};
    auto out = runNode(NodeSpec("QLinearMatMul", in, {DataType::Int8}, 10));
    ASSERT_TRUE(out) << out.status().message();
    // 16.129 rounds to 16, + 1 = 17; -16256 saturates to -128.
    EXPECT_EQ(valuesOf<int8_t>((*out)[0]), (std::vector<int8_t>{17, -128}));
}

}  // namespace ql::test
