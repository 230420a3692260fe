#include "core/exec/kernels/qlinear_conv.h"

#include <gtest/gtest.h>

#include "tests/core/exec/kernels/integer_test_util.h"

namespace ql::test {

TEST(QLinearConvTest, MatchesTheReferenceWithPerChannelScalesAndBias) {
    for (DataType yType : {DataType::UInt8, DataType::Int8}) {
        Conv2dCase c;
        const Tensor x = randomEightBit(DataType::UInt8, {c.n, c.c, c.h, c.w}, 3);
        const Tensor w = randomEightBit(DataType::Int8, {c.m, c.c / c.group, c.kh, c.kw}, 4);
        const std::vector<float> wScale{0.002f, 0.003f, 0.0015f, 0.004f, 0.001f, 0.0025f};
        const std::vector<int32_t> bias{100, -2000, 0, 5000, -7, 123};
        const float xScale = 0.02f, yScale = 0.05f;
        const int64_t yZero = yType == DataType::Int8 ? -5 : 128;
        const Tensor yz = yType == DataType::Int8 ? int8s({}, {-5}) : uint8s({}, {128});
        auto out = runNode(NodeSpec("QLinearConv",
                                    {{"x", x},
                                     {"x_scale", floats({}, {xScale})},
                                     {"x_zero_point", uint8s({}, {7})},
                                     {"w", w},
                                     {"w_scale", floats({6}, wScale)},
                                     {"w_zero_point", int8s({6}, {0, 0, 0, 0, 0, 0})},
                                     {"y_scale", floats({}, {yScale})},
                                     {"y_zero_point", yz},
                                     {"B", Tensor::fromVector(DataType::Int32, {6}, bias)}},
                                    {yType}, 10, [&](NodeBuilder& n) { setConv2dAttributes(n, c); }));
        ASSERT_TRUE(out) << out.status().message();
        const std::vector<int64_t> acc = referenceIntegerConv(c, x, 7, w, std::vector<int64_t>(6, 0),
                                                              std::vector<int64_t>(bias.begin(), bias.end()));
        const std::vector<float> actual = (*out)[0].toFloats();
        ASSERT_EQ(actual.size(), acc.size());
        const int64_t size = c.outH() * c.outW();
        for (size_t i = 0; i < acc.size(); ++i) {
            const auto m = static_cast<size_t>(static_cast<int64_t>(i) / size % c.m);
            const int64_t expected =
                referenceRequantize(acc[i], xScale * wScale[m] / yScale, yZero, yType == DataType::Int8 ? -128 : 0,
                                    yType == DataType::Int8 ? 127 : 255);
            ASSERT_EQ(static_cast<int64_t>(actual[i]), expected) << "element " << i;
        }
    }
}

TEST(QLinearConvTest, ABiasOfTheWrongTypeIsAnError) {
    auto out = runNode(NodeSpec("QLinearConv",
                                {{"x", uint8s({1, 1, 1, 1}, {1})},
                                 {"x_scale", floats({}, {1})},
                                 {"x_zero_point", uint8s({}, {0})},
                                 {"w", uint8s({1, 1, 1, 1}, {1})},
                                 {"w_scale", floats({}, {1})},
                                 {"w_zero_point", uint8s({}, {0})},
                                 {"y_scale", floats({}, {1})},
                                 {"y_zero_point", uint8s({}, {0})},
                                 {"B", floats({1}, {1})}},
                                {DataType::UInt8}, 10));
    ASSERT_FALSE(out);
    EXPECT_NE(out.status().message().find("B must be INT32 with one value per output channel (1)"), std::string::npos)
        << out.status().message();
}

}  // namespace ql::test
