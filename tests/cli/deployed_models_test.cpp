// The doctor on the models people deploy: the YOLOv8-style detector and the BERT-style encoder of
// tests/tools/export_models.py (tests/data/models/), and the trained detector's box/score comparison.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <random>

#include "core/data/npy.h"
#include "tests/cli/cli_runner.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::TempDir;

const std::string kModels = std::string(QL_TEST_DATA_DIR) + "/models/";
const std::string kTune = std::string(QL_TEST_DATA_DIR) + "/tune/";

nlohmann::json lintJson(const std::string& model) {
    const auto r = test::runCli({"lint", model, "--json"});
    EXPECT_LE(r.exitCode, 1) << r.err;
    return nlohmann::json::parse(r.out);
}

int countRule(const nlohmann::json& lint, const std::string& rule) {
    int n = 0;
    for (const auto& f : lint["findings"]) n += f["rule"] == rule;
    return n;
}

int countSeverity(const nlohmann::json& lint, const std::string& severity) {
    int n = 0;
    for (const auto& f : lint["findings"]) n += f["severity"] == severity;
    return n;
}

// QuantLens' own Q/DQ layout, linted as any imported model: no error, no requantize, nothing that splits a fusion
// (the residual Adds of C2f and of the encoder get their skip input quantized, the conv -> Add edge none).
void expectFusible(const nlohmann::json& lint) {
    EXPECT_EQ(countSeverity(lint, "error"), 0) << lint.dump(1);
    for (const char* rule : {"trt-requantize", "trt-concat-scales", "trt-qdq-splits-fusion", "trt-shared-scale-range",
                             "trt-residual-add-unquantized-input", "trt-qdq-blocks-bn-fusion"})
        EXPECT_EQ(countRule(lint, rule), 0) << rule << "\n" << lint.dump(1);
}

// Calibrates `model` on `data` and exports it; returns the lint of the export.
nlohmann::json lintOfExport(const TempDir& dir, const std::string& model, const std::vector<std::string>& data) {
    std::vector<std::string> calibrate = {"calibrate", model, "-o", dir.file("calib.json")};
    for (const std::string& d : data) calibrate.insert(calibrate.end(), {"--data", d});
    const auto c = test::runCli(calibrate);
    EXPECT_EQ(c.exitCode, 0) << c.err;
    const auto q = test::runCli({"quantize", model, "--calib", dir.file("calib.json"), "-o", dir.file("int8.onnx")});
    EXPECT_EQ(q.exitCode, 0) << q.err;
    return lintJson(dir.file("int8.onnx"));
}

TEST(DeployedModelsTest, TheYoloV8DetectorLintsWithoutErrorsAndExportsFusibleQdq) {
    const nlohmann::json lint = lintJson(kModels + "yolov8_tiny.onnx");
    EXPECT_EQ(countSeverity(lint, "error"), 0) << lint.dump(1);
    TempDir dir;
    std::mt19937 random(3);
    std::uniform_real_distribution<float> pixel(0.0f, 1.0f);
    std::vector<float> images(4 * 3 * 320 * 320);
    for (float& p : images) p = pixel(random);
    ASSERT_TRUE(writeNpy(dir.file("images.npy"), Tensor::fromVector(DataType::Float, {4, 3, 320, 320}, images)));
    const nlohmann::json exported = lintOfExport(dir, kModels + "yolov8_tiny.onnx", {dir.file("images.npy")});
    expectFusible(exported);
}

TEST(DeployedModelsTest, TheBertEncoderGetsItsAttentionFindingsAndExportsFusibleQdq) {
    const nlohmann::json lint = lintJson(kModels + "bert_tiny.onnx");
    EXPECT_EQ(countSeverity(lint, "error"), 0) << lint.dump(1);
    // Hugging Face's BERT divides the scores by sqrt(head size) after Q x K^T: not the form TensorRT fuses.
    EXPECT_EQ(countRule(lint, "trt-mha-fusion"), 2) << lint.dump(1);
    TempDir dir;
    std::mt19937 random(5);
    std::uniform_int_distribution<int64_t> token(0, 511);
    std::vector<int64_t> ids(8 * 128), mask(8 * 128, 1);
    for (int64_t& id : ids) id = token(random);
    for (size_t i = 0; i < mask.size(); ++i) mask[i] = (i % 128) < 100 ? 1 : 0;
    ASSERT_TRUE(writeNpy(dir.file("ids.npy"), Tensor::fromVector(DataType::Int64, {8, 128}, ids)));
    ASSERT_TRUE(writeNpy(dir.file("mask.npy"), Tensor::fromVector(DataType::Int64, {8, 128}, mask)));
    const nlohmann::json exported =
        lintOfExport(dir, kModels + "bert_tiny.onnx",
                     {"input_ids=" + dir.file("ids.npy"), "attention_mask=" + dir.file("mask.npy")});
    expectFusible(exported);
}

// The trained detector's output mixes pixels and probabilities: compare reports each group apart.
TEST(DeployedModelsTest, CompareReportsTheDetectorsBoxAndScoreChannelsApart) {
    TempDir dir;
    const std::string calib = dir.file("calib.json");
    ASSERT_EQ(test::runCli({"calibrate", kTune + "detector.onnx", "--data", kTune + "detector_calib.npy", "-o", calib})
                  .exitCode,
              0);
    const auto r = test::runCli({"compare", kTune + "detector.onnx", "--calib", calib, "--data",
                                 kTune + "detector_holdout.npy", "--samples", "16", "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto json = nlohmann::json::parse(r.out);
    ASSERT_EQ(json["output_groups"].size(), 2u) << r.out;
    EXPECT_EQ(json["output_groups"][0]["name"], "boxes");
    EXPECT_EQ(json["output_groups"][0]["end"], 4);
    EXPECT_EQ(json["output_groups"][1]["name"], "scores");
    EXPECT_TRUE(json["output_groups"][1]["sqnr_db"].is_number());
    // A detection tensor is no class vector: its output metric is SQNR, not top-1 agreement, and the CLI says so.
    EXPECT_EQ(json["outputs"]["kind"], "detection");
    // Named by the user; a range past the output's channels is refused before any work.
    const auto named =
        test::runCli({"compare", kTune + "detector.onnx", "--calib", calib, "--data", kTune + "detector_holdout.npy",
                      "--samples", "8", "--output-split", "xy=0:2,wh=2:4,cls=4:7", "--output-axis", "2"});
    ASSERT_EQ(named.exitCode, 0) << named.err;
    EXPECT_NE(named.out.find("output channels wh [2, 4) on axis 2"), std::string::npos) << named.out;
    EXPECT_NE(named.out.find("output metric: SQNR, cosine and max error"), std::string::npos) << named.out;
    EXPECT_EQ(named.out.find("top-1 agreement with FP32"), std::string::npos) << named.out;
    const auto tooWide =
        test::runCli({"compare", kTune + "detector.onnx", "--calib", calib, "--data", kTune + "detector_holdout.npy",
                      "--output-split", "all=0:9", "--output-axis", "2"});
    EXPECT_EQ(tooWide.exitCode, 2);
    EXPECT_NE(tooWide.err.find("has 7 channels on axis 2"), std::string::npos) << tooWide.err;
}

}  // namespace
}  // namespace ql
