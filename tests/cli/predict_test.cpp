// quantlens-cli predict: the JSON contract (issue 28, item 4), times said to be estimates, the all-FP16 comparison,
// --plan, --shapes, --gpu-profile, and bad usage (a missing model, an unknown --gpu listing the known ones).
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.h"
#include "tests/support/control_flow_model.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::ModelBuilder;
using test::TempDir;

// x -> conv1 -> relu -> conv2 -> relu -> GlobalAveragePool -> Flatten -> Gemm: a small classifier.
std::string writeClassifier(const TempDir& dir, bool dynamicBatch = false) {
    ModelBuilder b;
    b.input("x", DataType::Float, {dynamicBatch ? -1 : 1, 32, 16, 16});
    b.initializer("w1", {32, 32, 3, 3}, test::seededFloats(32 * 32 * 9));
    b.initializer("w2", {64, 32, 3, 3}, test::seededFloats(64 * 32 * 9, 3));
    b.initializer("fc", {10, 64}, test::seededFloats(640, 5));
    b.node("Conv", {"x", "w1"}, {"c1"}, "conv1").ints("pads", {1, 1, 1, 1});
    b.node("Relu", {"c1"}, {"r1"}, "relu1");
    b.node("Conv", {"r1", "w2"}, {"c2"}, "conv2").ints("pads", {1, 1, 1, 1});
    b.node("Relu", {"c2"}, {"r2"}, "relu2");
    b.node("GlobalAveragePool", {"r2"}, {"p"}, "gap");
    b.node("Flatten", {"p"}, {"f"}, "flatten");
    b.node("Gemm", {"f", "fc"}, {"y"}, "head").i("transB", 1);
    b.output("y");
    const std::string path = dir.file("classifier.onnx");
    b.save(path);
    return path;
}

nlohmann::json runJson(const std::vector<std::string>& args) {
    const auto r = test::runCli(args);
    EXPECT_EQ(r.exitCode, 0) << r.err;
    return nlohmann::json::parse(r.out);
}

TEST(PredictCliTest, JsonHasTheContractKeys) {
    TempDir dir;
    const auto j = runJson({"predict", writeClassifier(dir), "--gpu", "rtx3060-laptop", "--json"});
    for (const char* key :
         {"gpu", "trt", "layers", "reformats", "total_ms", "fp16_total_ms", "speedup_vs_fp16", "estimate"})
        EXPECT_TRUE(j.contains(key)) << key;
    EXPECT_EQ(j["gpu"]["name"], "rtx3060-laptop");
    EXPECT_EQ(j["trt"], "10.x");
    EXPECT_FALSE(j["estimate"]["fitted"]);
    EXPECT_TRUE(j["estimate"]["checked_error"].is_number());
    ASSERT_FALSE(j["layers"].empty());
    for (const auto& layer : j["layers"]) {
        for (const char* key :
             {"name", "onnx_nodes", "kind", "precision", "inputs", "outputs", "macs", "bytes", "time_ms"})
            EXPECT_TRUE(layer.contains(key)) << key;
        for (const auto& t : layer["inputs"]) EXPECT_TRUE(t.contains("precision") && t.contains("format"));
        EXPECT_GT(layer["time_ms"].get<double>(), 0.0);
    }
    // The default placement: both convolutions INT8, with their Relus fused.
    const auto& conv1 = *std::find_if(j["layers"].begin(), j["layers"].end(),
                                      [](const auto& l) { return l["name"] == "conv1 + relu1"; });
    EXPECT_EQ(conv1["precision"], "int8");
    EXPECT_EQ(conv1["kind"], "convolution");
    EXPECT_EQ(conv1["onnx_nodes"], (nlohmann::json{"conv1", "relu1"}));
    EXPECT_GT(j["fp16_total_ms"].get<double>(), 0.0);
    EXPECT_NEAR(j["speedup_vs_fp16"].get<double>(), j["fp16_total_ms"].get<double>() / j["total_ms"].get<double>(),
                1e-9);
}

// If/Loop bodies: their layers under "bodies", each with its time and what the total counts of it (the If's slower
// branch, the Loop's body twice: its trip count), and the text says so.
TEST(PredictCliTest, ControlFlowBodiesArePredictedAndCounted) {
    TempDir dir;
    const std::string model = dir.file("branches.onnx");
    std::ofstream(model, std::ios::binary) << test::convBranchesModel()->proto().SerializeAsString();
    const auto j = runJson({"predict", model, "--gpu", "t4", "--json"});
    ASSERT_EQ(j["bodies"].size(), 3u) << j.dump();
    EXPECT_TRUE(j["unpredicted_bodies"].empty());
    double counted = 0.0;
    for (const auto& body : j["bodies"]) {
        for (const char* key : {"node", "op", "attribute", "trips", "layers", "reformats", "total_ms", "counted_ms"})
            EXPECT_TRUE(body.contains(key)) << key;
        EXPECT_FALSE(body["layers"].empty());
        counted += body["counted_ms"].get<double>();
    }
    EXPECT_EQ(j["bodies"][2]["trips"], 2);
    EXPECT_DOUBLE_EQ(j["bodies"][2]["counted_ms"].get<double>(), 2 * j["bodies"][2]["total_ms"].get<double>());
    EXPECT_EQ(j["bodies"][0]["counted_ms"].get<double>() > 0, j["bodies"][1]["counted_ms"].get<double>() == 0);
    EXPECT_NEAR(j["bodies_ms"].get<double>(), counted, 1e-12);
    double layers = 0.0;
    for (const auto& layer : j["layers"]) layers += layer["time_ms"].get<double>();
    EXPECT_NEAR(j["total_ms"].get<double>(), layers + counted, 1e-9);
    const auto text = test::runCli({"predict", model, "--gpu", "t4"});
    EXPECT_NE(text.out.find("refine/body (Loop)"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("counted 2 times"), std::string::npos) << text.out;
    EXPECT_EQ(text.out.find("Not predicted"), std::string::npos) << text.out;
}

TEST(PredictCliTest, TextSaysTimesAreEstimates) {
    TempDir dir;
    const auto r = test::runCli({"predict", writeClassifier(dir), "--gpu", "t4"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("Estimated latency"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("Times are estimates"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("est. ms"), std::string::npos) << r.out;
}

TEST(PredictCliTest, PlanAllFp16MatchesTheFp16Total) {
    TempDir dir;
    const std::string model = writeClassifier(dir);
    test::writeFile(dir.file("fp16.json"),
                    R"({"format": "quantlens-plan", "version": 1, "default": "fp16", "nodes": {}})");
    const auto j = runJson({"predict", model, "--plan", dir.file("fp16.json"), "--gpu", "a100", "--json"});
    EXPECT_NEAR(j["total_ms"].get<double>(), j["fp16_total_ms"].get<double>(), 1e-9);
    for (const auto& layer : j["layers"]) {
        if (layer["kind"] == "convolution") {
            EXPECT_EQ(layer["precision"], "fp16");
        }
    }
}

TEST(PredictCliTest, ShapesSetDynamicInputs) {
    TempDir dir;
    const std::string model = writeClassifier(dir, true);
    const auto one = runJson({"predict", model, "--gpu", "l4", "--json"});
    EXPECT_TRUE(one["approximate_shapes"]);
    const auto eight = runJson({"predict", model, "--gpu", "l4", "--shapes", "x=8x32x16x16", "--json"});
    EXPECT_FALSE(eight["approximate_shapes"]);
    int64_t macsOne = 0, macsEight = 0;
    for (const auto& l : one["layers"]) macsOne += l["macs"].get<int64_t>();
    for (const auto& l : eight["layers"]) macsEight += l["macs"].get<int64_t>();
    EXPECT_EQ(macsEight, 8 * macsOne);
    const auto bad = test::runCli({"predict", model, "--gpu", "l4", "--shapes", "y=1x2"});
    EXPECT_EQ(bad.exitCode, 2);
    EXPECT_NE(bad.err.find("no input named 'y'"), std::string::npos) << bad.err;
}

TEST(PredictCliTest, GpuProfileFileIsUsed) {
    TempDir dir;
    const std::string model = writeClassifier(dir);
    test::writeFile(dir.file("gpu.json"), R"({"format": "quantlens-gpu-profile", "version": 1, "gpu": "rtx3080",
        "classes": {"convolution": {"overhead_us": 100}},
        "fit": {"layers": 9, "spearman": 0.9, "median_layer_error": 0.1, "total_error": 0.05}})");
    const auto j = runJson({"predict", model, "--gpu-profile", dir.file("gpu.json"), "--json"});
    EXPECT_EQ(j["gpu"]["name"], "rtx3080");
    EXPECT_EQ(j["gpu"]["profile"], dir.file("gpu.json"));
    EXPECT_TRUE(j["estimate"]["fitted"]);
    EXPECT_DOUBLE_EQ(j["estimate"]["checked_error"].get<double>(), 0.05);
    for (const auto& layer : j["layers"]) {
        if (layer["kind"] == "convolution") {
            EXPECT_GE(layer["time_ms"].get<double>(), 0.1);
        }
    }
}

TEST(PredictCliTest, BadInputsExit2WithAClearMessage) {
    TempDir dir;
    const std::string model = writeClassifier(dir);
    const auto missing = test::runCli({"predict", dir.file("nope.onnx"), "--gpu", "t4"});
    EXPECT_EQ(missing.exitCode, 2);
    EXPECT_NE(missing.err.find("nope.onnx"), std::string::npos) << missing.err;
    const auto unknown = test::runCli({"predict", model, "--gpu", "gtx480"});
    EXPECT_EQ(unknown.exitCode, 2);
    EXPECT_NE(unknown.err.find("--gpu gtx480: unknown GPU"), std::string::npos) << unknown.err;
    for (const char* name : {"t4", "a100", "rtx3060-laptop", "jetson-orin-nano"})
        EXPECT_NE(unknown.err.find(name), std::string::npos) << name;
    const auto none = test::runCli({"predict", model});
    EXPECT_EQ(none.exitCode, 2);
    EXPECT_NE(none.err.find("--gpu NAME"), std::string::npos) << none.err;
    const auto both = test::runCli({"predict", model, "--gpu", "t4", "--gpu-profile", dir.file("p.json")});
    EXPECT_EQ(both.exitCode, 2);
    const auto badProfile = test::runCli({"predict", model, "--gpu-profile", dir.file("missing.json")});
    EXPECT_EQ(badProfile.exitCode, 2);
    EXPECT_NE(badProfile.err.find("missing.json"), std::string::npos) << badProfile.err;
    const auto badTrt = test::runCli({"predict", model, "--gpu", "t4", "--trt", "7"});
    EXPECT_EQ(badTrt.exitCode, 2);
}

}  // namespace
}  // namespace ql
