// External data: read from files inside the model's folder only (path traversal is refused).
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

#include "core/model/model.h"
#include "core/model/tensor_data.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::ModelBuilder;
using test::TempDir;

// A MatMul whose weight [4,2] lives in an external file at `location` (offset 16).
ModelBuilder externalModel(const std::string& location, int64_t length = 32) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 4});
    onnx::TensorProto w;
    w.set_name("w");
    w.set_data_type(onnx::TensorProto::FLOAT);
    w.add_dims(4);
    w.add_dims(2);
    w.set_data_location(onnx::TensorProto::EXTERNAL);
    auto add = [&](const char* k, const std::string& v) {
        auto* e = w.add_external_data();
        e->set_key(k);
        e->set_value(v);
    };
    add("location", location);
    add("offset", "16");
    if (length >= 0) add("length", std::to_string(length));
    *b.graph().add_initializer() = w;
    b.node("MatMul", {"x", "w"}, {"y"}, "mm");
    b.output("y", DataType::Float, {1, 2});
    return b;
}

std::string weightsFile() {
    std::string bytes(16, '\x7f');  // padding before the offset
    for (int i = 0; i < 8; ++i) {
        const float f = static_cast<float>(i) * 0.5f;
        bytes.append(reinterpret_cast<const char*>(&f), 4);
    }
    return bytes;
}

TEST(ExternalDataTest, ReadsWeightsFromAFileBesideTheModel) {
    TempDir dir;
    test::writeFile(dir.file("weights.bin"), weightsFile());
    externalModel("weights.bin").save(dir.file("m.onnx"));
    auto model = Model::load(dir.file("m.onnx"));
    ASSERT_TRUE(model.isOk()) << model.status().message();
    EXPECT_TRUE((*model)->usesExternalData());
    const Initializer& w = (*model)->graph().initializers()[0];
    EXPECT_TRUE(w.external);
    auto values = tensorAsFloats(*w.proto, w.rawBytes);
    ASSERT_TRUE(values.isOk());
    ASSERT_EQ(values->size(), 8u);
    EXPECT_FLOAT_EQ((*values)[3], 1.5f);
    for (const auto& d : (*model)->diagnostics()) ADD_FAILURE() << d.source << ": " << d.message;
}

TEST(ExternalDataTest, SubfolderInsideTheModelFolderIsAllowed) {
    TempDir dir;
    std::filesystem::create_directory(dir.file("data"));
    test::writeFile(dir.file("data/weights.bin"), weightsFile());
    externalModel("data/weights.bin").save(dir.file("m.onnx"));
    auto model = Model::load(dir.file("m.onnx"));
    EXPECT_TRUE(model.isOk()) << model.status().message();
}

TEST(ExternalDataTest, AbsoluteLocationIsRefused) {
    TempDir dir;
    test::writeFile(dir.file("weights.bin"), weightsFile());
    externalModel(dir.file("weights.bin")).save(dir.file("m.onnx"));
    auto model = Model::load(dir.file("m.onnx"));
    ASSERT_FALSE(model.isOk());
    EXPECT_NE(model.status().message().find("absolute"), std::string::npos);
    EXPECT_NE(model.status().message().find("m.onnx"), std::string::npos);
}

TEST(ExternalDataTest, DotDotComponentIsRefused) {
    TempDir outer;
    std::filesystem::create_directory(outer.file("model"));
    test::writeFile(outer.file("weights.bin"), weightsFile());
    externalModel("../weights.bin").save(outer.file("model/m.onnx"));
    auto model = Model::load(outer.file("model/m.onnx"));
    ASSERT_FALSE(model.isOk());
    EXPECT_NE(model.status().message().find("'..'"), std::string::npos);
}

TEST(ExternalDataTest, SymlinkLeadingOutsideIsRefused) {
    TempDir outer;
    std::filesystem::create_directory(outer.file("model"));
    test::writeFile(outer.file("secret.bin"), weightsFile());
    std::filesystem::create_symlink(outer.file("secret.bin"), outer.file("model/weights.bin"));
    externalModel("weights.bin").save(outer.file("model/m.onnx"));
    auto model = Model::load(outer.file("model/m.onnx"));
    ASSERT_FALSE(model.isOk());
    EXPECT_NE(model.status().message().find("outside"), std::string::npos);
}

TEST(ExternalDataTest, MissingDataFileIsNamed) {
    TempDir dir;
    externalModel("weights.bin").save(dir.file("m.onnx"));
    auto model = Model::load(dir.file("m.onnx"));
    ASSERT_FALSE(model.isOk());
    EXPECT_NE(model.status().message().find("weights.bin"), std::string::npos);
    EXPECT_NE(model.status().message().find("'w'"), std::string::npos);
}

TEST(ExternalDataTest, ShortDataFileIsRefused) {
    TempDir dir;
    test::writeFile(dir.file("weights.bin"), weightsFile().substr(0, 30));
    externalModel("weights.bin").save(dir.file("m.onnx"));
    auto model = Model::load(dir.file("m.onnx"));
    ASSERT_FALSE(model.isOk());
    EXPECT_NE(model.status().message().find("truncated"), std::string::npos);
}

TEST(ExternalDataTest, LengthThatDisagreesWithTheShapeIsRefused) {
    TempDir dir;
    test::writeFile(dir.file("weights.bin"), weightsFile());
    externalModel("weights.bin", 24).save(dir.file("m.onnx"));
    auto model = Model::load(dir.file("m.onnx"));
    ASSERT_FALSE(model.isOk());
    EXPECT_NE(model.status().message().find("length"), std::string::npos);
}

TEST(ExternalDataTest, ModelFromMemoryCannotReferenceFiles) {
    auto model = externalModel("weights.bin").tryLoad();
    ASSERT_FALSE(model.isOk());
    EXPECT_NE(model.status().message().find("memory"), std::string::npos);
}

}  // namespace
}  // namespace ql
