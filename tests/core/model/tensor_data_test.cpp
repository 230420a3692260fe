#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <bit>
#include <cmath>

#include "core/common/half.h"
#include "core/model/tensor_data.h"

namespace ql {
namespace {

TEST(TensorDataTest, TypedFieldsAreDecoded) {
    onnx::TensorProto t;
    t.set_name("t");
    t.set_data_type(onnx::TensorProto::FLOAT16);
    t.add_dims(2);
    t.add_int32_data(floatToHalf(1.5f));
    t.add_int32_data(floatToHalf(-2.0f));
    auto values = tensorAsFloats(t);
    ASSERT_TRUE(values.isOk());
    EXPECT_EQ(*values, (std::vector<float>{1.5f, -2.0f}));
}

TEST(TensorDataTest, Int64FieldAndConversion) {
    onnx::TensorProto t;
    t.set_data_type(onnx::TensorProto::INT64);
    t.add_dims(3);
    for (int64_t v : {int64_t{-1}, int64_t{0}, int64_t{1} << 40}) t.add_int64_data(v);
    auto values = tensorAsInt64s(t);
    ASSERT_TRUE(values.isOk());
    EXPECT_EQ((*values)[2], 1LL << 40);
}

TEST(TensorDataTest, SizeMismatchIsAnErrorNamingTheTensor) {
    onnx::TensorProto t;
    t.set_name("weights");
    t.set_data_type(onnx::TensorProto::FLOAT);
    t.add_dims(4);
    t.set_raw_data(std::string(8, '\0'));
    auto values = tensorAsFloats(t);
    ASSERT_FALSE(values.isOk());
    EXPECT_NE(values.status().message().find("'weights'"), std::string::npos);
}

TEST(TensorDataTest, HalfConversionRoundsToNearestEven) {
    EXPECT_EQ(floatToHalf(1.0f), 0x3c00);
    EXPECT_EQ(floatToHalf(65504.0f), 0x7bff);
    EXPECT_EQ(floatToHalf(1e6f), 0x7c00);                   // overflow to infinity
    EXPECT_EQ(floatToHalf(1.0f + 1.0f / 2048.0f), 0x3c00);  // tie -> even
    EXPECT_EQ(floatToHalf(1.0f + 3.0f / 2048.0f), 0x3c02);  // tie -> even (up)
    EXPECT_EQ(floatToHalf(5.96046448e-08f), 0x0001);        // smallest subnormal
    EXPECT_FLOAT_EQ(halfToFloat(0x0001), 5.96046448e-08f);
    EXPECT_FLOAT_EQ(halfToFloat(0xc000), -2.0f);
    EXPECT_TRUE(std::isnan(halfToFloat(floatToHalf(std::nanf("")))));
    for (uint32_t h = 0; h < 0x7c00; ++h) EXPECT_EQ(floatToHalf(halfToFloat(static_cast<uint16_t>(h))), h);
}

TEST(TensorDataTest, Bfloat16RoundsToNearestEven) {
    EXPECT_EQ(floatToBfloat16(1.0f), 0x3f80);
    EXPECT_FLOAT_EQ(bfloat16ToFloat(0x3f80), 1.0f);
    EXPECT_EQ(floatToBfloat16(std::bit_cast<float>(0x3f808000u)), 0x3f80);  // tie -> even
    EXPECT_EQ(floatToBfloat16(std::bit_cast<float>(0x3f818000u)), 0x3f82);
}

}  // namespace
}  // namespace ql
