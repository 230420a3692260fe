#include "core/exec/kernels/conv_integer.h"

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

TEST(ConvIntegerTest, SpecExamplesWithAndWithoutPadding) {
    const Tensor x = uint8s({1, 1, 3, 3}, {2, 3, 4, 5, 6, 7, 8, 9, 10});
    const Tensor w = uint8s({1, 1, 2, 2}, {1, 1, 1, 1});
    auto plain = runNode(
        NodeSpec("ConvInteger", {{"x", x}, {"w", w}, {"x_zero_point", uint8s({}, {1})}}, {DataType::Int32}, 10));
    ASSERT_TRUE(plain) << plain.status().message();
    EXPECT_EQ((*plain)[0].dtype(), DataType::Int32);
    EXPECT_EQ(int64sOf((*plain)[0]), (std::vector<int64_t>{12, 16, 24, 28}));
    auto padded = runNode(NodeSpec("ConvInteger", {{"x", x}, {"w", w}, {"x_zero_point", uint8s({}, {1})}},
                                   {DataType::Int32}, 10, [](NodeBuilder& n) {
                                       n.ints("pads", {1, 1, 1, 1});
                                   }));
    ASSERT_TRUE(padded) << padded.status().message();
    EXPECT_EQ(int64sOf((*padded)[0]), (std::vector<int64_t>{1, 3, 5, 3, 5, 12, 16, 9, 11, 24, 28, 15, 7, 15, 17, 9}));
}

TEST(ConvIntegerTest, MatchesTheReferenceWithGroupsStridesDilationsAndPerChannelZeroPoints) {
    for (DataType wType : {DataType::UInt8, DataType::Int8}) {
        Conv2dCase c;
        c.dilation = wType == DataType::Int8 ? 2 : 1;
        const Tensor x = randomEightBit(DataType::UInt8, {c.n, c.c, c.h, c.w}, 1);
        const Tensor w = randomEightBit(wType, {c.m, c.c / c.group, c.kh, c.kw}, 2);
        const std::vector<int64_t> wZero = wType == DataType::Int8 ? std::vector<int64_t>{-3, 0, 5, 127, -128, 1}
                                                                   : std::vector<int64_t>{0, 17, 128, 255, 3, 99};
        Tensor wz =
            wType == DataType::Int8 ? int8s({6}, {-3, 0, 5, 127, -128, 1}) : uint8s({6}, {0, 17, 128, 255, 3, 99});
        auto out = runNode(NodeSpec("ConvInteger",
                                    {{"x", x}, {"w", w}, {"x_zero_point", uint8s({}, {200})}, {"w_zero_point", wz}},
                                    {DataType::Int32}, 10, [&](NodeBuilder& n) { setConv2dAttributes(n, c); }));
        ASSERT_TRUE(out) << out.status().message();
        EXPECT_EQ((*out)[0].shape(), (Shape{c.n, c.m, c.outH(), c.outW()}));
        EXPECT_EQ(int64sOf((*out)[0]), referenceIntegerConv(c, x, 200, w, wZero, {}));
    }
}

TEST(ConvIntegerTest, AFloatInputIsAnErrorNamingTheNode) {
    auto out =
        runNode(NodeSpec("ConvInteger", {{"x", floats({1, 1, 2, 2}, {1, 2, 3, 4})}, {"w", uint8s({1, 1, 1, 1}, {1})}},
                         {DataType::Int32}, 10));
    ASSERT_FALSE(out);
    EXPECT_NE(out.status().message().find("Op (ConvInteger): x is FLOAT; it must be INT8 or UINT8"), std::string::npos)
        << out.status().message();
}

}  // namespace ql::test
