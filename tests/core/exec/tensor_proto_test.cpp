#include "core/exec/tensor_proto.h"

#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::TempDir;

TEST(TensorProtoTest, RoundTripsThroughAFileKeepingNameDtypeShapeAndValues) {
    TempDir dir;
    const Tensor t = Tensor::fromVector<int32_t>(DataType::Int32, {2, 3}, {1, -2, 3, -4, 5, 2147483647});
    ASSERT_TRUE(writeTensorProtoFile(dir.file("t.pb"), "x", t).isOk());
    auto read = readTensorProtoFile(dir.file("t.pb"));
    ASSERT_TRUE(read) << read.status().message();
    EXPECT_EQ(read->name, "x");
    EXPECT_EQ(read->tensor.dtype(), DataType::Int32);
    EXPECT_EQ(read->tensor.shape(), (Shape{2, 3}));
    EXPECT_EQ(read->tensor.toInt64s(), (std::vector<int64_t>{1, -2, 3, -4, 5, 2147483647}));
}

TEST(TensorProtoTest, ReadsTypedFieldsAsWellAsRawData) {
    onnx::TensorProto proto = test::makeTensor("f", DataType::Float, {3}, {0.5, -1.5, 2.0});
    proto.clear_raw_data();
    proto.clear_float_data();
    for (float v : {0.5f, -1.5f, 2.0f}) proto.add_float_data(v);
    auto t = tensorFromProto(proto);
    ASSERT_TRUE(t) << t.status().message();
    EXPECT_EQ(t->toFloats(), (std::vector<float>{0.5f, -1.5f, 2.0f}));
}

TEST(TensorProtoTest, ScalarHasRankZeroAndOneElement) {
    auto t = tensorFromProto(test::makeTensor("s", DataType::Int64, {}, {42}));
    ASSERT_TRUE(t) << t.status().message();
    EXPECT_EQ(t->rank(), 0u);
    EXPECT_EQ(t->toInt64s(), (std::vector<int64_t>{42}));
}

TEST(TensorProtoTest, StringTensorIsRefusedWithItsName) {
    onnx::TensorProto proto;
    proto.set_name("words");
    proto.set_data_type(onnx::TensorProto::STRING);
    *proto.add_string_data() = std::string(1, 'a');
    auto t = tensorFromProto(proto);
    ASSERT_FALSE(t);
    EXPECT_NE(t.status().message().find("words"), std::string::npos);
}

TEST(TensorProtoTest, SizeMismatchBetweenShapeAndDataIsAnError) {
    onnx::TensorProto proto;
    proto.set_name("bad");
    proto.set_data_type(onnx::TensorProto::FLOAT);
    proto.add_dims(4);
    proto.set_raw_data(std::string(8, '\0'));
    EXPECT_FALSE(tensorFromProto(proto));
}

TEST(TensorProtoTest, MissingAndGarbageFilesAreErrorsNamingThePath) {
    TempDir dir;
    auto missing = readTensorProtoFile(dir.file("none.pb"));
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.status().message().find("none.pb"), std::string::npos);
    test::writeFile(dir.file("junk.pb"), "\xff\xff\xff\xff garbage");
    auto junk = readTensorProtoFile(dir.file("junk.pb"));
    ASSERT_FALSE(junk);
    EXPECT_NE(junk.status().message().find("junk.pb"), std::string::npos);
}

}  // namespace
}  // namespace ql
