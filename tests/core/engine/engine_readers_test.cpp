// The engine report readers: layer information (8.x/10.x and 11.x schemas, names only), tensor formats and layer
// precisions, the profile (merged in engine order), timing and metadata files, and bad or truncated files.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/engine/layer_info_reader.h"
#include "core/engine/layer_precision.h"
#include "core/engine/profile_reader.h"
#include "core/engine/run_metadata_reader.h"
#include "core/engine/tensor_format.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::TempDir;

const std::string kEngineData = std::string(QL_TEST_DATA_DIR) + "/engine/";

// Two layers in the 8.x/10.x form of NVIDIA's published examples: a Q/DQ reformat and an INT8 conv writing FP16.
constexpr const char* kTrt10Layers = R"json({"Layers": [{
  "Name": "QuantizeLinear_2", "LayerType": "Reformat",
  "Inputs": [{"Name": "input", "Dimensions": [1,3,8,8], "Format/Datatype": "Row major linear FP32"}],
  "Outputs": [{"Name": "q", "Dimensions": [1,3,8,8], "Format/Datatype": "Four wide channel vectorized row major Int8 format"}],
  "ParameterType": "Reformat", "Origin": "QDQ", "TacticValue": "0x0000000000000000"
},{
  "Name": "conv.weight + QuantizeLinear_8 + Conv_12 + PWN(Clip_16)", "LayerType": "CaskConvolution",
  "Inputs": [{"Name": "q", "Dimensions": [1,3,8,8], "Format/Datatype": "Four wide channel vectorized row major Int8 format"}],
  "Outputs": [{"Name": "y", "Dimensions": [1,8,8,8], "Format/Datatype": "Thirty-two wide channel vectorized row major FP16 format"}],
  "Weights": {"Type": "Int8", "Count": 216}, "Bias": {"Type": "Float", "Count": 8},
  "TacticName": "turing_fp16_i8816cudnn_int8_128x128_ldg16_relu_small_nt_v1", "TacticValue": "0x4e4e6b8f37d71713",
  "Metadata": "[ONNX Layer: Conv_12]\u001f[ONNX Layer: Clip_16]"
}], "Bindings": ["input", "y"]})json";

Result<EngineReport> parse(const std::string& text) {
    return layerInfoFromJson(nlohmann::json::parse(text), "--layers L.json");
}

TEST(TensorFormatTest, ReadsTheTypeOfEverySpelling) {
    EXPECT_EQ(precisionFromFormat("Thirty-two wide channel vectorized row major Int8 format"), EnginePrecision::Int8);
    EXPECT_EQ(precisionFromFormat("Channel major FP16 format where channel % 8 == 0"), EnginePrecision::Fp16);
    EXPECT_EQ(precisionFromFormat("Row major linear FP32"), EnginePrecision::Fp32);
    EXPECT_EQ(precisionFromFormat("Row major linear FP32 format (kLINEAR)"), EnginePrecision::Fp32);
    EXPECT_EQ(precisionFromFormat("Half"), EnginePrecision::Fp16);
    EXPECT_EQ(precisionFromFormat("Float"), EnginePrecision::Fp32);
    EXPECT_EQ(precisionFromFormat("BFloat16"), EnginePrecision::Bf16);
    EXPECT_EQ(precisionFromFormat("Int32"), EnginePrecision::Int32);
    EXPECT_EQ(precisionFromFormat("N/A due to dynamic shapes"), EnginePrecision::Unknown);
}

TEST(LayerInfoReaderTest, Reads10xLayersFormatsWeightsAndTactics) {
    const auto report = parse(kTrt10Layers);
    ASSERT_TRUE(report) << report.status().message();
    EXPECT_EQ(report->schema, LayerInfoSchema::Trt10);
    ASSERT_EQ(report->layers.size(), 2u);
    const EngineLayer& q = report->layers[0];
    EXPECT_TRUE(q.isReformat());
    EXPECT_EQ(q.origin, "QDQ");
    EXPECT_EQ(layerPrecision(q), EnginePrecision::Int8);  // what it writes
    const EngineLayer& conv = report->layers[1];
    EXPECT_FALSE(conv.isReformat());
    EXPECT_EQ(conv.weights, EnginePrecision::Int8);
    EXPECT_EQ(conv.outputs[0].precision, EnginePrecision::Fp16);
    EXPECT_EQ(layerPrecision(conv), EnginePrecision::Int8);  // int8 in, int8 weights: computes int8
    EXPECT_EQ(conv.tactic, "turing_fp16_i8816cudnn_int8_128x128_ldg16_relu_small_nt_v1");
    EXPECT_EQ(conv.inputs[0].dimensions, (std::vector<int64_t>{1, 3, 8, 8}));
    ASSERT_EQ(report->ioTensors.size(), 2u);
    EXPECT_EQ(report->ioTensors[1].name, "y");
}

TEST(LayerInfoReaderTest, Reads11xIoTensorsAndSeparateDataTypes) {
    const auto report = readLayerInfo(kEngineData + "digits_int8.trt11.layers.json");
    ASSERT_TRUE(report) << report.status().message();
    EXPECT_EQ(report->schema, LayerInfoSchema::Trt11);
    EXPECT_EQ(report->layers.size(), 8u);
    ASSERT_EQ(report->ioTensors.size(), 2u);
    EXPECT_EQ(report->ioTensors[0].mode, "Input");
    EXPECT_EQ(report->ioTensors[0].precision, EnginePrecision::Fp32);
    size_t int8 = 0;
    for (const EngineLayer& layer : report->layers) int8 += layerPrecision(layer) == EnginePrecision::Int8 ? 1 : 0;
    EXPECT_EQ(int8, 8u);  // the input quantize and every compute layer
}

TEST(LayerInfoReaderTest, NamesOnlyLayersHaveUnknownPrecision) {
    const auto report = parse(R"({"Layers": ["Conv_1 + Relu_2", "Reformatting CopyNode for Input Tensor 0 to X"]})");
    ASSERT_TRUE(report) << report.status().message();
    ASSERT_EQ(report->layers.size(), 2u);
    EXPECT_EQ(layerPrecision(report->layers[0]), EnginePrecision::Unknown);
    EXPECT_TRUE(report->layers[1].isReformat());
}

TEST(LayerInfoReaderTest, BadFilesNameTheFileAndTheProblem) {
    TempDir dir;
    const std::string text = kTrt10Layers;
    test::writeFile(dir.file("cut.json"), text.substr(0, text.size() / 2));
    auto r = readLayerInfo(dir.file("cut.json"));
    ASSERT_FALSE(r);
    EXPECT_NE(r.status().message().find("--layers " + dir.file("cut.json")), std::string::npos);
    EXPECT_NE(r.status().message().find("truncated"), std::string::npos) << r.status().message();

    test::writeFile(dir.file("empty.json"), "  \n");
    r = readLayerInfo(dir.file("empty.json"));
    ASSERT_FALSE(r);
    EXPECT_NE(r.status().message().find("empty"), std::string::npos);

    r = readLayerInfo(dir.file("missing.json"));
    ASSERT_FALSE(r);
    EXPECT_NE(r.status().message().find("no such file"), std::string::npos);

    r = readLayerInfo(dir.path());
    EXPECT_FALSE(r);

    for (const char* bad :
         {R"({"layers": []})", R"([1, 2])", R"({"Layers": []})", R"({"Layers": [{"LayerType": "x"}]})",
          R"({"Layers": [{"Name": "a", "Inputs": 3}]})", R"({"Layers": [7]})"}) {
        EXPECT_FALSE(parse(bad)) << bad;
    }
    EXPECT_NE(parse(R"({"Layers": [{"LayerType": "x"}]})").status().message().find("layer 0 has no \"Name\""),
              std::string::npos);
}

// Found by fuzz_engine_report's sibling fuzz_project: a number past double's range makes nlohmann throw
// out_of_range, not parse_error; the readers that parse with exceptions caught only the latter.
TEST(LayerInfoReaderTest, ANumberPastDoubleRangeIsAnErrorNotAnException) {
    TempDir dir;
    test::writeFile(dir.file("huge.json"), R"({"Layers": [{"Name": "a", "Time": 1e99999}]})");
    const auto r = readLayerInfo(dir.file("huge.json"));
    ASSERT_FALSE(r);
    EXPECT_NE(r.status().message().find("not valid JSON"), std::string::npos) << r.status().message();
}

TEST(ProfileReaderTest, AddsProfileOnlyReformatsInEngineOrder) {
    auto report = parse(kTrt10Layers);
    ASSERT_TRUE(report);
    report->layersFile = "L.json";
    const auto profile = profileFromJson(nlohmann::json::parse(R"json([{"count": 100},
        {"name": "QuantizeLinear_2", "timeMs": 1.0, "averageMs": 0.01, "medianMs": 0.01, "percentage": 10},
        {"name": "Reformatting CopyNode for Input Tensor 0 to conv.weight + QuantizeLinear_8 + Conv_12 + PWN(Clip_16)",
         "timeMs": 0.5, "averageMs": 0.005, "percentage": 5},
        {"name": "conv.weight + QuantizeLinear_8 + Conv_12 + PWN(Clip_16)", "timeMs": 8.5, "averageMs": 0.085,
         "percentage": 85}])json"),
                                         "--profile P.json");
    ASSERT_TRUE(profile) << profile.status().message();
    ASSERT_TRUE(applyProfile(*report, *profile, "--profile P.json").isOk());
    report->profileFile = "P.json";
    ASSERT_EQ(report->layers.size(), 3u);
    EXPECT_TRUE(report->layers[1].fromProfileOnly);
    EXPECT_TRUE(report->layers[1].isReformat());
    EXPECT_EQ(report->layers[1].type, "Reformat");
    EXPECT_DOUBLE_EQ(*report->layers[2].timeMs, 0.085);
    EXPECT_NEAR(*report->totalTimeMs(), 0.1, 1e-12);
}

TEST(ProfileReaderTest, OlderProfilesWithoutAverageUseTimeOverCount) {
    const auto profile =
        profileFromJson(nlohmann::json::parse(R"([{"count": 4}, {"name": "a", "timeMs": 2.0}])"), "--profile P");
    ASSERT_TRUE(profile);
    EXPECT_DOUBLE_EQ((*profile)[0].averageMs, 0.5);
}

TEST(ProfileReaderTest, BadOrForeignProfilesAreErrors) {
    EXPECT_FALSE(profileFromJson(nlohmann::json::parse(R"({"name": "a"})"), "--profile P"));
    EXPECT_FALSE(profileFromJson(nlohmann::json::parse(R"([{"count": 1}])"), "--profile P"));
    EXPECT_FALSE(profileFromJson(nlohmann::json::parse(R"([{"count": 1}, {"name": "a"}])"), "--profile P"));
    auto report = parse(kTrt10Layers);
    ASSERT_TRUE(report);
    const auto foreign = profileFromJson(
        nlohmann::json::parse(R"([{"name": "x", "averageMs": 1}, {"name": "y", "averageMs": 1}])"), "--profile P");
    ASSERT_TRUE(foreign);
    const Status status = applyProfile(*report, *foreign, "--profile P");
    ASSERT_FALSE(status.isOk());
    EXPECT_NE(status.message().find("2 of its 2 layers are not in"), std::string::npos) << status.message();
    TempDir dir;
    test::writeFile(dir.file("p.json"), R"([{"count": 1}, {"name": "a", "averageMs": )");
    const auto cut = readProfile(dir.file("p.json"));
    ASSERT_FALSE(cut);
    EXPECT_NE(cut.status().message().find("--profile " + dir.file("p.json")), std::string::npos);
}

TEST(RunMetadataReaderTest, SummarizesTimingAndFlattensMetadata) {
    TempDir dir;
    test::writeFile(dir.file("t.json"), R"([{"computeMs": 0.4, "latencyMs": 0.5}, {"computeMs": 0.2, "latencyMs": 0.3},
        {"computeMs": 0.9, "latencyMs": 1.0}])");
    const auto timing = readTiming(dir.file("t.json"));
    ASSERT_TRUE(timing) << timing.status().message();
    EXPECT_EQ(timing->iterations, 3u);
    EXPECT_DOUBLE_EQ(timing->medianComputeMs, 0.4);
    EXPECT_DOUBLE_EQ(*timing->medianLatencyMs, 0.5);
    test::writeFile(dir.file("bad.json"), R"([{"latencyMs": 1}])");
    EXPECT_FALSE(readTiming(dir.file("bad.json")));

    test::writeFile(dir.file("m.json"), R"({"build_options": {"Precision": "FP32+FP16+INT8", "avgTiming": "8"},
        "device_information": {"Compute Capability": 7.5}})");
    const auto metadata = readRunMetadata(dir.file("m.json"));
    ASSERT_TRUE(metadata) << metadata.status().message();
    ASSERT_EQ(metadata->size(), 3u);
    EXPECT_EQ((*metadata)[0], (std::pair<std::string, std::string>{"build_options.Precision", "FP32+FP16+INT8"}));
    EXPECT_EQ((*metadata)[2].second, "7.5");
    EXPECT_FALSE(readRunMetadata(dir.file("t.json")));
}

}  // namespace
}  // namespace ql
