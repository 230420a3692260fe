// quantlens-cli calibrate and compare: files written, JSON contract, TensorRT cache, exit codes.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/data/npy.h"
#include "tests/cli/cli_runner.h"
#include "tests/core/data/image_test_util.h"
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

// x [N, 3, 4, 4] -> Relu -> y, with a folder of two 8x4 images of grey 204 (0.8 after / 255).
struct ImageFixture {
    TempDir dir;
    std::string model = dir.file("m.onnx"), images = dir.file("imgs"), calib = dir.file("calib.json");

    ImageFixture() {
        ModelBuilder b;
        b.input("x", DataType::Float, {-1, 3, 4, 4});
        b.node("Relu", {"x"}, {"y"}, "relu");
        b.output("y");
        b.save(model);
        std::filesystem::create_directory(images);
        for (const char* name : {"/a.png", "/b.png"})
            test::writeImage(images + name, 8, 4, [](int, int, int) { return 204; });
    }
    nlohmann::json inputRange() const { return nlohmann::json::parse(readText(calib))["activations"]["x"]; }
};

TEST(CalibrateCliTest, ImageFoldersTakeTheResizeModeAndAMeanOfOneValue) {
    ImageFixture f;
    auto r = test::runCli({"calibrate", f.model, "--data", f.images, "--method", "minmax", "-o", f.calib});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NEAR(f.inputRange()["min"].get<double>(), 0.8, 1e-5);  // centre crop: grey everywhere
    r = test::runCli({"calibrate", f.model, "--data", f.images, "--method", "minmax", "-o", f.calib, "--resize",
                      "letterbox", "--pad-value", "0", "--mean", "0.5", "--std", "0.5,0.5,0.5"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NEAR(f.inputRange()["min"].get<double>(), -1.0, 1e-5);  // the black border: (0 - 0.5) / 0.5
    EXPECT_NEAR(f.inputRange()["max"].get<double>(), 0.6, 1e-5);   // the image: (0.8 - 0.5) / 0.5
}

TEST(CalibrateCliTest, ImageOptionsOfTheWrongKindExitTwoSayingWhy) {
    ImageFixture f;
    auto r = test::runCli({"calibrate", f.model, "--data", f.images, "-o", f.calib, "--mean", "0.5,0.4"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("the mean has 2 values but the model input has 3 channels"), std::string::npos) << r.err;
    r = test::runCli({"calibrate", f.model, "--data", f.images, "-o", f.calib, "--resize", "pad"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("unknown resize mode 'pad'"), std::string::npos) << r.err;
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

// Two outputs: y [N, 4] class scores, as in Fixture, and emb [N, 16], an L2-normalized embedding made from x
// scaled by a Mul whose first column is 1000x the others: INT8 quantizes that tensor with one scale sized for the
// large column, so the small ones (which make emb) round away and emb is by far the worse output.
struct TwoOutputs {
    TempDir dir;
    std::string model = dir.file("two.onnx"), data = dir.file("x.npy"), calib = dir.file("calib.json");

    TwoOutputs() {
        ModelBuilder b;
        b.input("x", DataType::Float, {-1, 8});
        b.initializer("w1", {6, 8}, test::seededFloats(48, 3));
        b.initializer("w2", {6, 4}, test::seededFloats(24, 4));
        std::vector<float> columns(8, 1.0f);
        columns[0] = 1000.0f;
        b.initializer("columns", {8}, columns);
        std::vector<float> w3 = test::seededFloats(8 * 16, 6);
        for (size_t j = 0; j < 16; ++j) w3[j] *= 0.02f;  // row 0: the large column counts no more than the others
        b.initializer("w3", {8, 16}, w3);
        b.node("Gemm", {"x", "w1"}, {"h"}, "fc1").i("transB", 1);
        b.node("Relu", {"h"}, {"r"}, "relu");
        b.node("MatMul", {"r", "w2"}, {"y"}, "fc2");
        b.node("Mul", {"x", "columns"}, {"xs"}, "scale_columns");
        b.node("MatMul", {"xs", "w3"}, {"e"}, "fc_emb");
        b.node("ReduceL2", {"e"}, {"norm"}, "norm").ints("axes", {1}).i("keepdims", 1);
        b.node("Div", {"e", "norm"}, {"emb"}, "l2_normalize");
        b.output("y");
        b.output("emb");
        b.save(model);
        EXPECT_TRUE(
            writeNpy(data, Tensor::fromVector(DataType::Float, {kSamples, 8}, test::seededFloats(kSamples * 8, 9)))
                .isOk());
        EXPECT_EQ(test::runCli({"calibrate", model, "--data", data, "--method", "minmax", "-o", calib}).exitCode, 0);
    }

    nlohmann::json compare(const std::string& mode) const {
        const auto r = test::runCli({"compare", model, "--calib", calib, "--data", data, "--mode", mode, "--json"});
        EXPECT_EQ(r.exitCode, 0) << r.err;
        return nlohmann::json::parse(r.out);
    }
};

TEST(CompareCliTest, EveryOutputIsReportedAndTheWorstOneHeadlines) {
    TwoOutputs f;
    const auto j = f.compare("accumulated");
    const auto& outputs = j["outputs"]["per_output"];
    ASSERT_EQ(outputs.size(), 2u) << j["outputs"].dump(1);
    EXPECT_EQ(outputs[0]["name"], "y");
    EXPECT_EQ(outputs[0]["kind"], "class_vector");
    EXPECT_TRUE(outputs[0].contains("top1_agreement"));
    EXPECT_EQ(outputs[1]["name"], "emb");
    // An embedding: SQNR, cosine and max error, no top-1 over its 16 values.
    EXPECT_EQ(outputs[1]["kind"], "values");
    EXPECT_NE(outputs[1]["kind_reason"].get<std::string>().find("l2_normalize"), std::string::npos);
    EXPECT_FALSE(outputs[1].contains("top1_agreement"));
    for (const auto& o : outputs)
        for (const char* key : {"sqnr_db", "cosine", "mse", "max_abs"}) EXPECT_TRUE(o[key].is_number()) << key;
    EXPECT_LT(outputs[1]["sqnr_db"].get<double>() + 10.0, outputs[0]["sqnr_db"].get<double>()) << outputs.dump(1);
    EXPECT_EQ(j["outputs"]["worst"]["name"], "emb");
    EXPECT_EQ(j["outputs"]["worst"]["sqnr_db"], outputs[1]["sqnr_db"]);
    // The first output's keys stay where readers find them.
    EXPECT_EQ(j["outputs"]["kind"], "class_vector");
    EXPECT_EQ(j["outputs"]["top1_agreement"], outputs[0]["top1_agreement"]);

    const auto text = test::runCli({"compare", f.model, "--calib", f.calib, "--data", f.data});
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find("worst output: 'emb' sqnr"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("(values: an embedding: L2-normalized by l2_normalize)"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("(of 2 outputs, whole plan)"), std::string::npos) << text.out;
    // A line per output (issue 29: every output, not the first one only).
    for (const char* line : {"\n  y ", "\n  emb "}) EXPECT_NE(text.out.find(line), std::string::npos) << line;
}

// Isolated rows are each layer alone; what the outputs report is still the quantized model (the whole plan).
TEST(CompareCliTest, IsolatedSaysWhatItMeasuresAndItsOutputsAreTheWholePlans) {
    TwoOutputs f;
    const auto accumulated = f.compare("accumulated");
    const auto isolated = f.compare("isolated");
    EXPECT_EQ(isolated["outputs"]["per_output"], accumulated["outputs"]["per_output"]);
    EXPECT_EQ(isolated["outputs"]["worst"]["name"], "emb");
    EXPECT_NE(isolated["layers_measure"].get<std::string>().find("alone"), std::string::npos);
    const auto text = test::runCli({"compare", f.model, "--calib", f.calib, "--data", f.data, "--mode", "isolated"});
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find("mode isolated: each row is that layer quantized alone"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("alone_db"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("worst output: 'emb'"), std::string::npos) << text.out;
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
