// quantlens-cli quantize: writes a Q/DQ model and its summary; bad inputs exit 2 naming the file and leave
// nothing behind.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::TempDir;

std::string writeModel(const TempDir& dir) {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {1, 3, 6, 6});
    b.initializer("w", {4, 3, 3, 3}, test::seededFloats(108));
    b.node("Conv", {"x", "w"}, {"c"}, "conv");
    b.node("Relu", {"c"}, {"y"}, "relu");
    b.output("y");
    b.save(dir.file("m.onnx"));
    return dir.file("m.onnx");
}

std::string writeCalibration(const TempDir& dir) {
    const nlohmann::json calib = {{"format", "quantlens-calibration"},
                                  {"version", 1},
                                  {"method", "minmax"},
                                  {"samples", 4},
                                  {"activations",
                                   {{"x", {{"amax", 2.0}, {"min", -2.0}, {"max", 2.0}, {"nonFinite", 0}}},
                                    {"c", {{"amax", 5.0}, {"min", -5.0}, {"max", 5.0}, {"nonFinite", 0}}},
                                    {"y", {{"amax", 5.0}, {"min", 0.0}, {"max", 5.0}, {"nonFinite", 0}}}}},
                                  {"weights", nlohmann::json::object()}};
    test::writeFile(dir.file("calib.json"), calib.dump());
    return dir.file("calib.json");
}

TEST(QuantizeCliTest, WritesTheQdqModelAndASummaryOfEveryDecision) {
    TempDir dir;
    const auto r = test::runCli({"quantize", writeModel(dir), "--calib", writeCalibration(dir), "-o",
                                 dir.file("q.onnx"), "--summary", dir.file("s.json")});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    auto model = Model::load(dir.file("q.onnx"));
    ASSERT_TRUE(model) << model.status().message();
    int dq = 0;
    for (const Node& node : (*model)->graph().nodes()) dq += node.opType == "DequantizeLinear" ? 1 : 0;
    EXPECT_EQ(dq, 2);
    std::ifstream in(dir.file("s.json"));
    const auto summary = nlohmann::json::parse(in);
    EXPECT_EQ(summary["format"], "quantlens-qdq-summary");
    ASSERT_EQ(summary["qdq"].size(), 2u);
    EXPECT_EQ(summary["qdq"][0]["layer"], "conv");
    EXPECT_EQ(summary["qdq"][0]["tensor"], "x");
    EXPECT_FLOAT_EQ(summary["qdq"][0]["scale"][0].get<float>(), 2.0f / 127.0f);
    EXPECT_EQ(summary["qdq"][1]["kind"], "weight");
    EXPECT_EQ(summary["qdq"][1]["axis"], 0);
}

TEST(QuantizeCliTest, BadInputsExitTwoNamingTheFileAndWriteNothing) {
    TempDir dir;
    const auto model = writeModel(dir);
    const auto calib = writeCalibration(dir);
    test::writeFile(dir.file("bad.json"), "{ not json");
    test::writeFile(dir.file("plan.json"), R"({"format": "quantlens-plan", "version": 1, "nodes": {"nope": "int8"}})");
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"quantize", dir.file("none.onnx"), "--calib", calib, "-o", dir.file("q.onnx")}, "none.onnx"},
        {{"quantize", model, "--calib", dir.file("bad.json"), "-o", dir.file("q.onnx")}, "bad.json"},
        {{"quantize", model, "--calib", calib, "--plan", dir.file("plan.json"), "-o", dir.file("q.onnx")}, "plan.json"},
        {{"quantize", model, "--calib", calib, "-o", dir.file("missing/dir/q.onnx")}, "q.onnx"},
    };
    for (const auto& [args, name] : cases) {
        const auto r = test::runCli(args);
        EXPECT_EQ(r.exitCode, 2) << name;
        EXPECT_NE(r.err.find(name), std::string::npos) << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
        EXPECT_FALSE(std::filesystem::exists(dir.file("q.onnx"))) << name;
    }
}

}  // namespace
}  // namespace ql
