#include "core/exec/conformance.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "core/exec/tensor_proto.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::ModelBuilder;
using test::TempDir;

// Writes a backend-test folder: model.onnx with one op y = op(x), and one data set.
std::string writeTest(const TempDir& root, const std::string& name, const std::string& op, const Tensor& input,
                      const Tensor& expected) {
    const std::string dir = root.file(name);
    std::filesystem::create_directories(dir + "/test_data_set_0");
    ModelBuilder b;
    b.input("x", input.dtype(), input.shape());
    b.node(op, {"x"}, {"y"});
    b.output("y", expected.dtype(), expected.shape(), true);
    b.save(dir + "/model.onnx");
    EXPECT_TRUE(writeTensorProtoFile(dir + "/test_data_set_0/input_0.pb", "x", input).isOk());
    EXPECT_TRUE(writeTensorProtoFile(dir + "/test_data_set_0/output_0.pb", "y", expected).isOk());
    return dir;
}

Tensor floats(std::vector<float> v) {
    const auto n = static_cast<int64_t>(v.size());
    return Tensor::fromVector<float>(DataType::Float, {n}, v);
}

TEST(ConformanceTest, MatchingOutputsPass) {
    TempDir root;
    const auto r = runConformanceTest(writeTest(root, "test_ok", "Identity", floats({1, 2}), floats({1, 2})));
    EXPECT_EQ(r.status, ConformanceStatus::Passed) << r.reason;
    EXPECT_EQ(r.name, "test_ok");
}

TEST(ConformanceTest, WrongOutputFailsNamingOutputAndPosition) {
    TempDir root;
    const auto r = runConformanceTest(writeTest(root, "test_bad", "Identity", floats({1, 2}), floats({1, 3})));
    EXPECT_EQ(r.status, ConformanceStatus::Failed);
    EXPECT_NE(r.reason.find("'y'"), std::string::npos) << r.reason;
    EXPECT_NE(r.reason.find("[1]"), std::string::npos) << r.reason;
}

TEST(ConformanceTest, UnregisteredOpIsSkippedNamingTheOp) {
    TempDir root;
    const auto r = runConformanceTest(writeTest(root, "test_skip", "StringNormalizer", floats({1}), floats({1})));
    EXPECT_EQ(r.status, ConformanceStatus::Skipped);
    EXPECT_NE(r.reason.find("StringNormalizer"), std::string::npos) << r.reason;
}

TEST(ConformanceTest, AnUnregisteredOpInsideASubgraphIsSkippedNamingTheOp) {
    TempDir root;
    const std::string dir = root.file("test_nested_skip");
    std::filesystem::create_directories(dir + "/test_data_set_0");
    ModelBuilder branch;
    branch.node("StringNormalizer", {"x"}, {"b"});
    branch.output("b");
    ModelBuilder b;
    b.input("c", DataType::Bool, {});
    b.input("x", DataType::Float, {1});
    b.node("If", {"c"}, {"y"}).graph("then_branch", branch.graph()).graph("else_branch", branch.graph());
    b.output("y");
    b.save(dir + "/model.onnx");
    const auto r = runConformanceTest(dir);
    EXPECT_EQ(r.status, ConformanceStatus::Skipped) << r.reason;
    EXPECT_NE(r.reason.find("StringNormalizer (opset 13)"), std::string::npos) << r.reason;
}

TEST(ConformanceTest, FolderWithoutDataSetsFails) {
    TempDir root;
    const std::string dir = writeTest(root, "test_empty", "Identity", floats({1}), floats({1}));
    std::filesystem::remove_all(dir + "/test_data_set_0");
    EXPECT_EQ(runConformanceTest(dir).status, ConformanceStatus::Failed);
}

TEST(ConformanceTest, FindsTestsInAFolderOfFoldersSortedOrTheFolderItself) {
    TempDir root;
    writeTest(root, "test_b", "Identity", floats({1}), floats({1}));
    const std::string a = writeTest(root, "test_a", "Identity", floats({1}), floats({1}));
    std::filesystem::create_directories(root.file("not_a_test"));
    auto all = findConformanceTests(root.path());
    ASSERT_TRUE(all) << all.status().message();
    ASSERT_EQ(all->size(), 2u);
    EXPECT_EQ(std::filesystem::path((*all)[0]).filename(), "test_a");
    auto one = findConformanceTests(a);
    ASSERT_TRUE(one);
    EXPECT_EQ(one->size(), 1u);
    EXPECT_FALSE(findConformanceTests(root.file("not_a_test")));
    EXPECT_FALSE(findConformanceTests(root.file("missing")));
}

}  // namespace
}  // namespace ql
