// A strongly typed export read back: `run --simulate` and `compare` on the exported file simulate it as written
// (its Q/DQ, its float16 islands, its float32 layers), and a re-export keeps its INT8, FP16 and FP32 layers.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/data/npy.h"
#include "tests/cli/cli_runner.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::TempDir;

// x -> conv1 (INT8) -> relu1 -> conv2 (FP16) -> relu2 -> conv3 (FP32 in the plan) -> sigmoid -> y
struct TypedFixture {
    TempDir dir;
    std::string model, calib, plan, x;

    TypedFixture() {
        test::ModelBuilder b;
        b.input("x", DataType::Float, {1, 4, 6, 6});
        b.initializer("w1", {8, 4, 3, 3}, test::seededFloats(288, 1));
        b.initializer("w2", {8, 8, 3, 3}, test::seededFloats(576, 2));
        b.initializer("w3", {8, 8, 1, 1}, test::seededFloats(64, 3));
        b.node("Conv", {"x", "w1"}, {"c1"}, "conv1").ints("pads", {1, 1, 1, 1});
        b.node("Relu", {"c1"}, {"r1"}, "relu1");
        b.node("Conv", {"r1", "w2"}, {"c2"}, "conv2").ints("pads", {1, 1, 1, 1});
        b.node("Relu", {"c2"}, {"r2"}, "relu2");
        b.node("Conv", {"r2", "w3"}, {"c3"}, "conv3");
        b.node("Sigmoid", {"c3"}, {"y"}, "sigmoid");
        b.output("y");
        model = dir.file("m.onnx");
        b.save(model);
        nlohmann::json activations;
        for (const char* name : {"x", "c1", "r1", "c2", "r2", "c3", "y"})
            activations[name] = {{"amax", 4.0}, {"min", -4.0}, {"max", 4.0}, {"nonFinite", 0}};
        calib = dir.file("calib.json");
        test::writeFile(calib, nlohmann::json{{"format", "quantlens-calibration"},
                                              {"version", 1},
                                              {"method", "minmax"},
                                              {"samples", 4},
                                              {"activations", activations},
                                              {"weights", nlohmann::json::object()}}
                                   .dump());
        plan = dir.file("plan.json");
        test::writeFile(plan, R"({"format": "quantlens-plan", "version": 1,
                                  "nodes": {"conv2": "fp16", "conv3": "fp32"}})");
        Tensor input(DataType::Float, {1, 4, 6, 6});
        const auto values = test::seededFloats(static_cast<size_t>(input.elementCount()), 9, -2.0f, 2.0f);
        std::copy(values.begin(), values.end(), input.data<float>());
        x = dir.file("x.npy");
        EXPECT_TRUE(writeNpy(x, input));
    }

    std::vector<float> output(const std::string& outDir) const {
        auto y = readNpy(dir.file(outDir + "/y.npy"));
        EXPECT_TRUE(y) << outDir;
        return y ? y->toFloats() : std::vector<float>{};
    }
};

nlohmann::json readJson(const std::string& path) {
    std::ifstream in(path);
    return nlohmann::json::parse(in);
}

std::map<std::string, std::string> layerPrecisions(const nlohmann::json& summary) {
    std::map<std::string, std::string> precisions;
    for (const auto& layer : summary["layers"]) precisions[layer["layer"]] = layer["precision"];
    return precisions;
}

TEST(TypedExportCliTest, SimulatingTheExportedFileGivesWhatTheFileComputes) {
    TypedFixture f;
    const auto q = f.dir.file("q11.onnx");
    const auto exported =
        test::runCli({"quantize", f.model, "--calib", f.calib, "--plan", f.plan, "-o", q, "--trt", "11"});
    ASSERT_EQ(exported.exitCode, 0) << exported.err;
    ASSERT_EQ(test::runCli({"run", q, "--input", "x=" + f.x, "--out", f.dir.file("file")}).exitCode, 0);
    const auto simulated = test::runCli(
        {"run", q, "--input", "x=" + f.x, "--out", f.dir.file("sim"), "--simulate", f.calib, "--trt", "11"});
    ASSERT_EQ(simulated.exitCode, 0) << simulated.err;
    const auto a = f.output("file"), b = f.output("sim");
    ASSERT_EQ(a.size(), b.size());
    ASSERT_FALSE(a.empty());
    for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 1e-6f * std::max(1.0f, std::fabs(b[i]))) << i;
    // The source model simulated with the plan gives the same numbers too.
    const auto source = test::runCli({"run", f.model, "--input", "x=" + f.x, "--out", f.dir.file("src"), "--simulate",
                                      f.calib, "--plan", f.plan, "--trt", "11"});
    ASSERT_EQ(source.exitCode, 0) << source.err;
    const auto s = f.output("src");
    for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], s[i], 1e-6f * std::max(1.0f, std::fabs(s[i]))) << i;
    // compare reads the file as written: its FP32 reference is the model it was made from.
    const auto compared = test::runCli({"compare", q, "--calib", f.calib, "--data", f.x, "--json"});
    ASSERT_EQ(compared.exitCode, 0) << compared.err;
    EXPECT_NE(compared.out.find("conv2"), std::string::npos);
}

TEST(TypedExportCliTest, ReexportKeepsTheInt8Fp16AndFp32Layers) {
    TypedFixture f;
    const auto q = f.dir.file("q11.onnx");
    ASSERT_EQ(test::runCli({"quantize", f.model, "--calib", f.calib, "--plan", f.plan, "-o", q, "--trt", "11",
                            "--summary", f.dir.file("first.json")})
                  .exitCode,
              0);
    const auto again = test::runCli({"quantize", q, "--calib", q, "-o", f.dir.file("again.onnx"), "--trt", "11",
                                     "--summary", f.dir.file("again.json")});
    ASSERT_EQ(again.exitCode, 0) << again.err;
    const auto first = layerPrecisions(readJson(f.dir.file("first.json")));
    const auto second = layerPrecisions(readJson(f.dir.file("again.json")));
    EXPECT_EQ(first.at("conv1"), "int8");
    EXPECT_EQ(first.at("conv2"), "fp16");
    EXPECT_EQ(first.at("conv3"), "fp32");
    EXPECT_EQ(second, first);
}

// What TensorRT 11 removed is refused before anything is written: the calibration cache (no calibrators), weak typing;
// and float16 I/O needs a strongly typed target.
TEST(TypedExportCliTest, WhatTheTargetCannotBuildExitsTwoAndWritesNothing) {
    TypedFixture f;
    const auto q = f.dir.file("q.onnx");
    const std::vector<std::vector<std::string>> refused = {
        {"quantize", f.model, "--calib", f.calib, "-o", q, "--trt", "11", "--trt-cache", f.dir.file("c.cache")},
        {"quantize", f.model, "--calib", f.calib, "-o", q, "--trt", "11", "--typing", "weak"},
        {"quantize", f.model, "--calib", f.calib, "-o", q, "--trt", "8.6", "--typing", "strong"},
        {"quantize", f.model, "--calib", f.calib, "-o", q, "--trt", "10", "--typing", "weak", "--fp16-io"},
        {"calibrate", f.model, "--data", f.x, "-o", f.dir.file("c.json"), "--trt", "11", "--trt-cache",
         f.dir.file("c.cache")}};
    for (const auto& args : refused) {
        const auto r = test::runCli(args);
        EXPECT_EQ(r.exitCode, 2) << args[5] << " " << r.err;
        EXPECT_FALSE(r.err.empty());
        EXPECT_FALSE(std::filesystem::exists(q));
        EXPECT_FALSE(std::filesystem::exists(f.dir.file("c.cache")));
        EXPECT_FALSE(std::filesystem::exists(f.dir.file("c.json")));
    }
    EXPECT_NE(test::runCli(refused[0]).err.find("removed the calibrators"), std::string::npos);
}

}  // namespace
}  // namespace ql
