// quantlens-cli conformance: per-test lines, summary, --json, --filter, --known-failures and exit codes.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/exec/tensor_proto.h"
#include "tests/cli/cli_runner.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::TempDir;

// A backend-test folder whose Identity model gets [1, 2]; `expected` is what output_0.pb claims.
void writeTest(const TempDir& root, const std::string& name, std::vector<float> expected) {
    const std::string dir = root.file(name);
    std::filesystem::create_directories(dir + "/test_data_set_0");
    test::ModelBuilder b;
    b.input("x", DataType::Float, {2});
    b.node("Identity", {"x"}, {"y"});
    b.output("y", DataType::Float, {2}, true);
    b.save(dir + "/model.onnx");
    ASSERT_TRUE(writeTensorProtoFile(dir + "/test_data_set_0/input_0.pb", "x",
                                     Tensor::fromVector<float>(DataType::Float, {2}, {1, 2}))
                    .isOk());
    ASSERT_TRUE(writeTensorProtoFile(dir + "/test_data_set_0/output_0.pb", "y",
                                     Tensor::fromVector<float>(DataType::Float, {2}, expected))
                    .isOk());
}

TEST(ConformanceCliTest, PassingFolderExitsZeroWithSummary) {
    TempDir root;
    writeTest(root, "test_good", {1, 2});
    const auto r = test::runCli({"conformance", root.path()});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("pass  test_good"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("1 passed, 0 failed, 0 skipped"), std::string::npos) << r.out;
}

TEST(ConformanceCliTest, FailingTestExitsOneAndJsonListsTheReason) {
    TempDir root;
    writeTest(root, "test_good", {1, 2});
    writeTest(root, "test_bad", {1, 5});
    const auto r = test::runCli({"conformance", root.path(), "--json"});
    EXPECT_EQ(r.exitCode, 1) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["passed"], 1);
    EXPECT_EQ(j["failed"], 1);
    EXPECT_EQ(j["skipped"], 0);
    ASSERT_EQ(j["tests"].size(), 2u);
    EXPECT_EQ(j["tests"][0]["name"], "test_bad");
    EXPECT_EQ(j["tests"][0]["status"], "fail");
    EXPECT_NE(j["tests"][0]["reason"].get<std::string>().find("expected 5"), std::string::npos);
}

TEST(ConformanceCliTest, FilterRunsOnlyMatchingTests) {
    TempDir root;
    writeTest(root, "test_good", {1, 2});
    writeTest(root, "test_bad", {1, 5});
    const auto r = test::runCli({"conformance", root.path(), "--filter", "good"});
    EXPECT_EQ(r.exitCode, 0) << r.out;
    EXPECT_EQ(r.out.find("test_bad"), std::string::npos) << r.out;
}

TEST(ConformanceCliTest, KnownFailuresAreNotFailuresAndFixedOnesAreReported) {
    TempDir root;
    writeTest(root, "test_good", {1, 2});
    writeTest(root, "test_bad", {1, 5});
    test::writeFile(root.file("known.txt"), "# comment\ntest_bad  expected data is wrong\ntest_good  was broken\n");
    const auto r = test::runCli({"conformance", root.path(), "--known-failures", root.file("known.txt")});
    EXPECT_EQ(r.exitCode, 0) << r.out;
    EXPECT_NE(r.out.find("known  test_bad"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("passes now"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("1 known failures (1 listed but passing)"), std::string::npos) << r.out;
}

TEST(ConformanceCliTest, BadUsageExitsTwo) {
    TempDir root;
    EXPECT_EQ(test::runCli({"conformance"}).exitCode, 2);
    const auto missing = test::runCli({"conformance", root.file("nothing")});
    EXPECT_EQ(missing.exitCode, 2);
    EXPECT_NE(missing.err.find("nothing"), std::string::npos) << missing.err;
    EXPECT_EQ(test::runCli({"conformance", root.path()}).exitCode, 2);  // no tests in it
    writeTest(root, "test_good", {1, 2});
    EXPECT_EQ(test::runCli({"conformance", root.path(), "--known-failures", root.file("none.txt")}).exitCode, 2);
}

}  // namespace
}  // namespace ql
