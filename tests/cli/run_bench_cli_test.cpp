// quantlens-cli run and bench: outputs written as .npy, JSON timing keys, and exit codes on bad input.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/data/npy.h"
#include "tests/cli/cli_runner.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::TempDir;

// y/scaled = x @ [[2, 0], [0, 2]] with a dynamic batch.
std::string writeModel(const TempDir& dir) {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {-1, 2});
    b.initializer("w", {2, 2}, {2, 0, 0, 2});
    b.node("MatMul", {"x", "w"}, {"y/scaled"});
    b.output("y/scaled");
    b.save(dir.file("m.onnx"));
    return dir.file("m.onnx");
}

std::string writeInput(const TempDir& dir, Tensor t) {
    EXPECT_TRUE(writeNpy(dir.file("x.npy"), t).isOk());
    return dir.file("x.npy");
}

TEST(RunCliTest, WritesEachOutputAsNpyWithASafeName) {
    TempDir dir;
    const auto model = writeModel(dir);
    const auto input = writeInput(dir, Tensor::fromVector<float>(DataType::Float, {3, 2}, {1, 2, 3, 4, 5, 6}));
    const auto r = test::runCli({"run", model, "--input", "x=" + input, "--out", dir.file("out")});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("y/scaled: FLOAT [3,2]"), std::string::npos) << r.out;
    auto y = readNpy(dir.file("out/y_scaled.npy"));
    ASSERT_TRUE(y) << y.status().message();
    EXPECT_EQ(y->shape(), (Shape{3, 2}));
    EXPECT_EQ(y->toFloats(), (std::vector<float>{2, 4, 6, 8, 10, 12}));
}

TEST(RunCliTest, BadInputsExitTwoWithAMessage) {
    TempDir dir;
    const auto model = writeModel(dir);
    const auto input = writeInput(dir, Tensor::fromVector<float>(DataType::Float, {1, 2}, {1, 2}));
    EXPECT_EQ(test::runCli({"run", model, "--input", "x"}).exitCode, 2);                          // no '='
    EXPECT_EQ(test::runCli({"run", model, "--input", "x=" + dir.file("none.npy")}).exitCode, 2);  // no file
    const auto bareMissing = test::runCli({"run", model, "--input", dir.file("nope.npy")});       // one input, no file
    EXPECT_EQ(bareMissing.exitCode, 2);
    EXPECT_NE(bareMissing.err.find("nope.npy"), std::string::npos) << bareMissing.err;
    EXPECT_EQ(bareMissing.err.find("must look like"), std::string::npos) << bareMissing.err;
    const auto wrongName = test::runCli({"run", model, "--input", "z=" + input});
    EXPECT_EQ(wrongName.exitCode, 2);
    EXPECT_NE(wrongName.err.find("'z'"), std::string::npos) << wrongName.err;
    const auto missing = test::runCli({"run", model});
    EXPECT_EQ(missing.exitCode, 2);
    EXPECT_NE(missing.err.find("missing input 'x'"), std::string::npos) << missing.err;
    const auto wrongShape = writeInput(dir, Tensor::fromVector<float>(DataType::Float, {3}, {1, 2, 3}));
    EXPECT_EQ(test::runCli({"run", model, "--input", "x=" + wrongShape}).exitCode, 2);
    EXPECT_EQ(test::runCli({"run", dir.file("none.onnx")}).exitCode, 2);
}

TEST(BenchCliTest, JsonHasTheTimingKeys) {
    TempDir dir;
    const auto r = test::runCli({"bench", writeModel(dir), "--iters", "3", "--threads", "2", "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["threads"], 2);
    EXPECT_GT(j["median_ms"].get<double>(), 0.0);
    EXPECT_LE(j["min_ms"].get<double>(), j["median_ms"].get<double>());
    EXPECT_LE(j["median_ms"].get<double>(), j["max_ms"].get<double>());
    EXPECT_GT(j["cpu_ms"].get<double>(), 0.0);  // process CPU time per run
}

TEST(BenchCliTest, ProfilePrintsTimePerOpType) {
    TempDir dir;
    const auto r = test::runCli({"bench", writeModel(dir), "--iters", "2", "--profile"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("MatMul:"), std::string::npos) << r.out;
}

TEST(BenchCliTest, BadModelOrOptionsExitTwo) {
    TempDir dir;
    EXPECT_EQ(test::runCli({"bench", dir.file("none.onnx")}).exitCode, 2);
    EXPECT_EQ(test::runCli({"bench", writeModel(dir), "--iters", "0"}).exitCode, 2);
}

}  // namespace
}  // namespace ql
