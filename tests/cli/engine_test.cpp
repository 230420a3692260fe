// quantlens-cli engine: JSON contract, the planted mismatch with its reason, --fail-on mismatch, the engine alone,
// the 11.x schema, --baseline, timing/metadata files, and bad usage or bad files (exit 2 naming the file).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::TempDir;

const std::string kData = std::string(QL_TEST_DATA_DIR) + "/engine/";
const std::string kModel = kData + "digits_int8.onnx";
const std::string kLayers = kData + "digits_int8.layers.json";
const std::string kProfile = kData + "digits_int8.profile.json";

nlohmann::json runJson(const std::vector<std::string>& args, int expectedExit = 0) {
    const auto r = test::runCli(args);
    EXPECT_EQ(r.exitCode, expectedExit) << r.err;
    return nlohmann::json::parse(r.out);
}

TEST(EngineCliTest, JsonHasTheContractKeys) {
    const auto j = runJson({"engine", kModel, "--layers", kLayers, "--profile", kProfile, "--json"});
    for (const char* key : {"layers", "total_time_ms", "mismatches", "unmapped_nodes", "top_layers", "int8_coverage"})
        EXPECT_TRUE(j.contains(key)) << key;
    ASSERT_EQ(j["layers"].size(), 10u);
    for (const auto& layer : j["layers"])
        for (const char* key : {"name", "type", "precision", "time_ms", "onnx_nodes"}) EXPECT_TRUE(layer.contains(key));
    EXPECT_EQ(j["layers"][1]["precision"], "int8");
    EXPECT_EQ(j["layers"][1]["onnx_nodes"],
              (nlohmann::json{"onnx::Conv_53_dequantized", "/stem/stem.0/Conv", "/stem/stem.2/Relu"}));
    EXPECT_EQ(j["layers"][3]["reformat"], true);  // the reformat before the planted FP16 layer
    EXPECT_EQ(j["layers"][4]["precision"], "fp16");
    ASSERT_EQ(j["layers"][4]["reformats"].size(), 1u);
    EXPECT_EQ(j["layers"][4]["reformats"][0]["from"], "int8");
    EXPECT_EQ(j["layers"][4]["reformats"][0]["to"], "fp16");
    EXPECT_TRUE(j["total_time_ms"].is_number());
    EXPECT_TRUE(j["unmapped_nodes"].empty());  // every compute node of the export is in a layer
    EXPECT_GT(j["int8_coverage"]["by_macs"].get<double>(), 0.9);
    EXPECT_LT(j["int8_coverage"]["by_time"].get<double>(), 1.0);
}

TEST(EngineCliTest, PlantedFp16LayerIsListedWithItsReason) {
    const auto j = runJson({"engine", kModel, "--layers", kLayers, "--profile", kProfile, "--json"});
    bool sawConv = false;
    bool sawReformat = false;
    for (const auto& m : j["mismatches"]) {
        for (const char* key : {"node", "planned", "actual", "reason"}) EXPECT_TRUE(m.contains(key)) << key;
        if (m["node"] == "/block/block.3/Conv" && m["kind"] == "precision") {
            sawConv = true;
            EXPECT_EQ(m["planned"], "int8");
            EXPECT_EQ(m["actual"], "fp16");
            EXPECT_TRUE(m["reason"].get<std::string>().starts_with("INT8 planned, FP16 ran: no INT8 tactic"));
        }
        if (m["kind"] == "reformat") {
            sawReformat = true;
            EXPECT_TRUE(m["reason"].get<std::string>().starts_with("Q/DQ not fused: extra reformat"));
        }
    }
    EXPECT_TRUE(sawConv) << j["mismatches"].dump(1);
    EXPECT_TRUE(sawReformat) << j["mismatches"].dump(1);
}

TEST(EngineCliTest, FailOnMismatchExitsOneWhenPlannedInt8DidNotRunInt8) {
    EXPECT_EQ(test::runCli({"engine", kModel, "--layers", kLayers, "--fail-on", "mismatch"}).exitCode, 1);
    EXPECT_EQ(test::runCli({"engine", kModel, "--layers", kLayers}).exitCode, 0);
    // The 11.x report of the same export runs every planned INT8 layer in INT8.
    EXPECT_EQ(
        test::runCli({"engine", kModel, "--layers", kData + "digits_int8.trt11.layers.json", "--fail-on", "mismatch"})
            .exitCode,
        0);
}

TEST(EngineCliTest, TextTableNamesMismatchesAndCoverage) {
    const auto r = test::runCli({"engine", kModel, "--layers", kLayers, "--profile", kProfile});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("/block/block.3/Conv: INT8 planned, FP16 ran: no INT8 tactic"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("Compute nodes in no engine layer: 0"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("INT8 coverage: "), std::string::npos) << r.out;
}

TEST(EngineCliTest, EngineAloneHasNoNodes) {
    const auto j = runJson({"engine", "--layers", kData + "digits_int8.trt11.layers.json", "--json"});
    EXPECT_EQ(j["schema"], "11.x");
    EXPECT_EQ(j["layers"].size(), 8u);
    EXPECT_TRUE(j["total_time_ms"].is_null());
    EXPECT_TRUE(j["mismatches"].empty());
    EXPECT_TRUE(j["unmapped_nodes"].empty());
    EXPECT_TRUE(j["int8_coverage"]["by_macs"].is_null());
    for (const auto& layer : j["layers"]) EXPECT_TRUE(layer["time_ms"].is_null());
}

TEST(EngineCliTest, BaselineComparesNodeTimes) {
    const auto j = runJson({"engine", kModel, "--layers", kLayers, "--profile", kProfile, "--baseline",
                            kData + "digits_fp16.layers.json", "--baseline-profile", kData + "digits_fp16.profile.json",
                            "--json"});
    ASSERT_TRUE(j.contains("comparison"));
    const auto& c = j["comparison"];
    EXPECT_EQ(c["by"], "node");
    EXPECT_EQ(c["rows"].size(), 13u);  // the compute nodes of the export
    EXPECT_LT(c["delta_ms"].get<double>(), 1.0);
    bool sawMix = false;
    for (const auto& row : c["rows"]) {
        if (row["node"] != "/mix/mix.0/Conv") continue;
        sawMix = true;
        EXPECT_EQ(row["precision"], "int8");
        EXPECT_EQ(row["baseline_precision"], "fp16");
        EXPECT_LT(row["delta_ms"].get<double>(), 0.0);  // INT8 is faster than FP16 here
    }
    EXPECT_TRUE(sawMix);
}

TEST(EngineCliTest, TimingAndMetadataFilesAreReported) {
    TempDir dir;
    test::writeFile(dir.file("times.json"), R"([{"computeMs": 0.5, "latencyMs": 0.6}, {"computeMs": 0.3}])");
    test::writeFile(dir.file("build.json"), R"({"build_options": {"Precision": "FP32+FP16+INT8"}})");
    const auto j = runJson({"engine", "--layers", kLayers, "--timing", dir.file("times.json"), "--metadata",
                            dir.file("build.json"), "--json"});
    EXPECT_EQ(j["timing"]["iterations"], 2);
    EXPECT_DOUBLE_EQ(j["timing"]["median_compute_ms"].get<double>(), 0.4);
    EXPECT_EQ(j["metadata"]["build_options.Precision"], "FP32+FP16+INT8");
}

TEST(EngineCliTest, BadFilesAndUsageExitTwoNamingTheFile) {
    TempDir dir;
    test::writeFile(dir.file("cut.json"), R"({"Layers": [{"Name": "a", "LayerType": )");
    auto r = test::runCli({"engine", "--layers", dir.file("cut.json")});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find(dir.file("cut.json")), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("truncated"), std::string::npos) << r.err;

    test::writeFile(dir.file("p.json"), R"([{"count": 1}, {"name": "x"}])");
    r = test::runCli({"engine", "--layers", kLayers, "--profile", dir.file("p.json")});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("--profile " + dir.file("p.json")), std::string::npos) << r.err;

    test::writeFile(dir.file("other.json"), R"([{"count": 1}, {"name": "Conv_1", "averageMs": 0.1},
        {"name": "Relu_2", "averageMs": 0.1}])");
    r = test::runCli({"engine", "--layers", kLayers, "--profile", dir.file("other.json")});
    EXPECT_EQ(r.exitCode, 2) << "a profile of another engine";
    EXPECT_NE(r.err.find("not in " + kLayers), std::string::npos) << r.err;

    r = test::runCli({"engine", "--layers", dir.file("missing.json")});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("no such file"), std::string::npos) << r.err;

    EXPECT_EQ(test::runCli({"engine", "--layers", kLayers, "--plan", dir.file("plan.json")}).exitCode, 2);
    EXPECT_EQ(test::runCli({"engine", "--layers", kLayers, "--baseline-profile", kProfile}).exitCode, 2);
    EXPECT_EQ(test::runCli({"engine", "--layers", kLayers, "--fail-on", "warning"}).exitCode, 2);
    EXPECT_EQ(test::runCli({"engine", "--layers", kLayers, "--trt", "9"}).exitCode, 2);
    EXPECT_EQ(test::runCli({"engine", kModel}).exitCode, 2);  // --layers is required
}

// A report read against another model: nothing maps, so there are "0 differences"; the CLI says the report is probably
// of another model and exits 2, or with --force reports it with the warning.
TEST(EngineCliTest, AReportOfAnotherModelExitsTwoUnlessForced) {
    const std::string other = std::string(QL_TEST_DATA_DIR) + "/tune/spiky_cnn.onnx";
    const auto refused = test::runCli({"engine", other, "--layers", kLayers});
    EXPECT_EQ(refused.exitCode, 2);
    EXPECT_NE(refused.err.find("probably of another model"), std::string::npos) << refused.err;
    EXPECT_NE(refused.err.find("digits_int8.layers.json"), std::string::npos) << refused.err;
    EXPECT_NE(refused.err.find("--force"), std::string::npos) << refused.err;
    EXPECT_EQ(refused.out, "");
    const auto j = runJson({"engine", other, "--layers", kLayers, "--force", "--json"});
    EXPECT_TRUE(j["mapping"]["likely_other_model"].get<bool>());
    EXPECT_LT(j["mapping"]["node_share"].get<double>(), 0.5);
    const auto text = test::runCli({"engine", other, "--layers", kLayers, "--force"});
    EXPECT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find("WARNING: the report maps"), std::string::npos) << text.out;
}

TEST(EngineCliTest, TheMatchingReportMapsWholeAndCountsItsDifferences) {
    const auto j = runJson({"engine", kModel, "--layers", kLayers, "--json"});
    EXPECT_FALSE(j["mapping"]["likely_other_model"].get<bool>());
    EXPECT_EQ(j["mapping"]["node_share"], 1.0);
    EXPECT_EQ(j["mapping"]["mapped_nodes"], j["mapping"]["compute_nodes"]);
    EXPECT_EQ(j["differences"]["total"], j["mismatches"].size());
    EXPECT_EQ(j["differences"]["precision"], 3);
    EXPECT_EQ(j["differences"]["reformat"], 1);
    const auto text = test::runCli({"engine", kModel, "--layers", kLayers});
    EXPECT_NE(text.out.find("Mismatches with the plan: 4 (3 precision, 1 reformat)"), std::string::npos) << text.out;
}

}  // namespace
}  // namespace ql
