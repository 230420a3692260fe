// quantlens-cli calibrate and compare: files written, JSON contract, TensorRT cache, exit codes.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/data/npy.h"
#include "tests/cli/cli_runner.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::ModelBuilder;
using test::TempDir;

constexpr int64_t kSamples = 24;

std::string readText(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// x [N, 8] -> Gemm -> h -> Relu -> r -> MatMul -> y [N, 4], with data and labels in `dir`.
struct Fixture {
    TempDir dir;
    std::string model = dir.file("m.onnx"), data = dir.file("x.npy"), labels = dir.file("labels.npy");
    std::string calib = dir.file("calib.json");

    Fixture() {
        ModelBuilder b;
        b.input("x", DataType::Float, {-1, 8});
        b.initializer("w1", {6, 8}, test::seededFloats(48, 3));
        b.initializer("b1", {6}, test::seededFloats(6, 5));
        b.initializer("w2", {6, 4}, test::seededFloats(24, 4));
        b.node("Gemm", {"x", "w1", "b1"}, {"h"}, "fc1").i("transB", 1);
        b.node("Relu", {"h"}, {"r"}, "relu");
        b.node("MatMul", {"r", "w2"}, {"y"}, "fc2");
        b.output("y");
        b.save(model);
        EXPECT_TRUE(
            writeNpy(data, Tensor::fromVector(DataType::Float, {kSamples, 8}, test::seededFloats(kSamples * 8, 9)))
                .isOk());
        std::vector<int64_t> classes;
        for (int64_t i = 0; i < kSamples; ++i) classes.push_back(i % 4);
        EXPECT_TRUE(writeNpy(labels, Tensor::fromVector(DataType::Int64, {kSamples}, classes)).isOk());
    }
};

TEST(CalibrateCliTest, WritesCalibrationAndTrtCache) {
    Fixture f;
    const std::string cache = f.dir.file("calib.cache");
    const auto r = test::runCli({"calibrate", f.model, "--data", f.data, "--method", "minmax", "-o", f.calib,
                                 "--trt-cache", cache, "--trt", "8.6"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.err, "");  // no progress line: stderr is not a terminal
    const auto j = nlohmann::json::parse(readText(f.calib));
    EXPECT_EQ(j["method"], "minmax");
    EXPECT_EQ(j["samples"], kSamples);
    ASSERT_TRUE(j["activations"].contains("x"));
    const std::string text = readText(cache);
    EXPECT_EQ(text.substr(0, text.find('\n')), "TRT-8600-MinMaxCalibration");
    EXPECT_NE(text.find("\nx: "), std::string::npos) << text;
}

TEST(CalibrateCliTest, BadMethodAndMissingDataExitTwo) {
    Fixture f;
    auto r = test::runCli({"calibrate", f.model, "--data", f.data, "--method", "magic", "-o", f.calib});
    EXPECT_EQ(r.exitCode, 2);
    r = test::runCli({"calibrate", f.model, "--data", f.dir.file("missing.npy"), "-o", f.calib});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("missing.npy"), std::string::npos) << r.err;
}

TEST(CompareCliTest, JsonHasTheContractKeys) {
    Fixture f;
    ASSERT_EQ(test::runCli({"calibrate", f.model, "--data", f.data, "-o", f.calib}).exitCode, 0);
    const auto r =
        test::runCli({"compare", f.model, "--calib", f.calib, "--data", f.data, "--labels", f.labels, "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_FALSE(j["layers"].empty());
    for (const auto& l : j["layers"])
        for (const char* key : {"node", "op", "output", "precision", "sqnr_db", "cosine", "mse", "max_abs"})
            EXPECT_TRUE(l.contains(key)) << key;
    for (size_t i = 1; i < j["layers"].size(); ++i)
        EXPECT_LE(j["layers"][i - 1]["sqnr_db"].get<double>(), j["layers"][i]["sqnr_db"].get<double>());
    for (const char* key : {"top1_agreement", "accuracy_fp32", "accuracy_quant", "accuracy_delta"})
        EXPECT_TRUE(j["outputs"].contains(key)) << key;
}

TEST(CompareCliTest, IsolatedListsOnlyQuantizedLayersWithoutLabelKeys) {
    Fixture f;
    ASSERT_EQ(test::runCli({"calibrate", f.model, "--data", f.data, "-o", f.calib}).exitCode, 0);
    const auto r =
        test::runCli({"compare", f.model, "--calib", f.calib, "--data", f.data, "--mode", "isolated", "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    for (const auto& l : j["layers"]) EXPECT_NE(l["precision"], "fp32");
    EXPECT_TRUE(j["outputs"].contains("top1_agreement"));
    EXPECT_FALSE(j["outputs"].contains("accuracy_fp32"));
}

TEST(CompareCliTest, TextTableNamesTheLayers) {
    Fixture f;
    ASSERT_EQ(test::runCli({"calibrate", f.model, "--data", f.data, "-o", f.calib}).exitCode, 0);
    const auto r = test::runCli({"compare", f.model, "--calib", f.calib, "--data", f.data, "--labels", f.labels});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("fc1"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("accuracy: fp32"), std::string::npos) << r.out;
}

TEST(CompareCliTest, BadCalibrationFileExitsTwoNamingIt) {
    Fixture f;
    test::writeFile(f.calib, "{not json");
    const auto r = test::runCli({"compare", f.model, "--calib", f.calib, "--data", f.data});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("calib.json"), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST(CompareCliTest, BadModeExitsTwo) {
    Fixture f;
    ASSERT_EQ(test::runCli({"calibrate", f.model, "--data", f.data, "-o", f.calib}).exitCode, 0);
    EXPECT_EQ(test::runCli({"compare", f.model, "--calib", f.calib, "--data", f.data, "--mode", "both"}).exitCode, 2);
}

}  // namespace
}  // namespace ql
