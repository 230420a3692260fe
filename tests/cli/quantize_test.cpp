// quantlens-cli quantize: writes a Q/DQ model and its summary; bad inputs exit 2 naming the file and leave
// nothing behind.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "core/data/npy.h"
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

int dequantizeCount(const std::string& path) {
    auto model = Model::load(path);
    EXPECT_TRUE(model) << model.status().message();
    int dq = 0;
    if (model)
        for (const Node& node : (*model)->graph().nodes()) dq += node.opType == "DequantizeLinear" ? 1 : 0;
    return dq;
}

std::string readText(const std::string& path) {
    std::ifstream in(path);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

TEST(QuantizeCliTest, WritesTheTrtexecCommandAndTheTensorRtCache) {
    TempDir dir;
    const auto r =
        test::runCli({"quantize", writeModel(dir), "--calib", writeCalibration(dir), "-o", dir.file("q.onnx"),
                      "--trtexec", dir.file("build.sh"), "--trt-cache", dir.file("q.cache"), "--trt", "8.6"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(readText(dir.file("q.cache")), "TRT-8600-MinMaxCalibration\nc: 3d214285\nx: 3c810204\ny: 3d214285\n");
    const std::string command = readText(dir.file("build.sh"));
    EXPECT_NE(
        command.find("trtexec --onnx=" + dir.file("q.onnx") + " --int8 --fp16 --saveEngine=" + dir.file("q.engine")),
        std::string::npos)
        << command;
}

TEST(QuantizeCliTest, ReadsScalesFromACacheAndFromAQdqModelAndReexportsAQdqModel) {
    TempDir dir;
    const auto model = writeModel(dir);
    ASSERT_EQ(test::runCli({"quantize", model, "--calib", writeCalibration(dir), "-o", dir.file("q.onnx"),
                            "--trt-cache", dir.file("q.cache")})
                  .exitCode,
              0);
    const auto fromCache = test::runCli({"quantize", model, "--calib", dir.file("q.cache"), "-o", dir.file("c.onnx")});
    EXPECT_EQ(fromCache.exitCode, 0) << fromCache.err;
    EXPECT_EQ(dequantizeCount(dir.file("c.onnx")), 2);
    const auto again =
        test::runCli({"quantize", dir.file("q.onnx"), "--calib", dir.file("q.onnx"), "-o", dir.file("r.onnx")});
    EXPECT_EQ(again.exitCode, 0) << again.err;
    EXPECT_NE(again.out.find("Q/DQ model"), std::string::npos) << again.out;
    EXPECT_EQ(dequantizeCount(dir.file("r.onnx")), 2);
}

// `run --simulate` on the FP32 model and `run` on the exported Q/DQ model compute the same thing.
TEST(QuantizeCliTest, ExportedModelMatchesTheSimulationOfThePlan) {
    TempDir dir;
    const auto model = writeModel(dir);
    const auto calib = writeCalibration(dir);
    Tensor x(DataType::Float, {1, 3, 6, 6});
    const auto values = test::seededFloats(108, 3, -2.0f, 2.0f);
    std::copy(values.begin(), values.end(), x.data<float>());
    ASSERT_TRUE(writeNpy(dir.file("x.npy"), x));
    ASSERT_EQ(test::runCli({"quantize", model, "--calib", calib, "-o", dir.file("q.onnx")}).exitCode, 0);
    const auto exported =
        test::runCli({"run", dir.file("q.onnx"), "--input", "x=" + dir.file("x.npy"), "--out", dir.file("q")});
    ASSERT_EQ(exported.exitCode, 0) << exported.err;
    const auto simulated =
        test::runCli({"run", model, "--input", "x=" + dir.file("x.npy"), "--out", dir.file("s"), "--simulate", calib});
    ASSERT_EQ(simulated.exitCode, 0) << simulated.err;
    auto q = readNpy(dir.file("q/y.npy"));
    auto s = readNpy(dir.file("s/y.npy"));
    ASSERT_TRUE(q && s);
    const auto a = q->toFloats(), b = s->toFloats();
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 1e-5f * std::max(1.0f, std::fabs(b[i]))) << i;
    auto fp32 = test::runCli({"run", model, "--input", "x=" + dir.file("x.npy"), "--out", dir.file("f")});
    ASSERT_EQ(fp32.exitCode, 0);
    EXPECT_NE(readNpy(dir.file("f/y.npy"))->toFloats(), b);  // the simulation is not FP32
}

TEST(QuantizeCliTest, BadInputsExitTwoNamingTheFileAndWriteNothing) {
    TempDir dir;
    const auto model = writeModel(dir);
    const auto calib = writeCalibration(dir);
    test::writeFile(dir.file("bad.json"), "{ not json");
    test::writeFile(dir.file("bad.cache"), "TRT-8600-EntropyCalibration2\nx 3c010204\n");
    test::writeFile(dir.file("plan.json"), R"({"format": "quantlens-plan", "version": 1, "nodes": {"nope": "int8"}})");
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"quantize", dir.file("none.onnx"), "--calib", calib, "-o", dir.file("q.onnx")}, "none.onnx"},
        {{"quantize", model, "--calib", dir.file("bad.json"), "-o", dir.file("q.onnx")}, "bad.json"},
        {{"quantize", model, "--calib", dir.file("bad.cache"), "-o", dir.file("q.onnx")}, "bad.cache:2:"},
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
