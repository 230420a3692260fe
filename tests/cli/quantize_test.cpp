// quantlens-cli quantize: writes a Q/DQ model and its summary; bad inputs exit 2 naming the file and leave
// nothing behind.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <set>

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
    // Weighted layers counted as lint counts them; the Relu fused into the conv runs INT8 too.
    EXPECT_NE(r.out.find("1 of 1 weighted layers INT8 (2 layers INT8 in all)"), std::string::npos) << r.out;
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
    // Named from the script's own folder, which the script changes to first.
    EXPECT_NE(
        command.find("cd \"$(dirname \"$0\")\" || exit 1\ntrtexec --onnx=q.onnx --int8 --fp16 --saveEngine=q.engine"),
        std::string::npos)
        << command;
    EXPECT_NE(command.find(" Written by quantlens-cli.\n"), std::string::npos) << command;  // the window names itself
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

// Output "y" of the exported Q/DQ model run by `run`, and of `run --simulate` on `model`, for seeded x in [-2, 2].
struct ExportedAndSimulated {
    std::vector<float> exported, simulated;
};
ExportedAndSimulated runExportedAndSimulated(const TempDir& dir, const std::string& model, const std::string& calib,
                                             const Shape& xShape) {
    Tensor x(DataType::Float, xShape);
    const auto values = test::seededFloats(static_cast<size_t>(x.elementCount()), 3, -2.0f, 2.0f);
    std::copy(values.begin(), values.end(), x.data<float>());
    EXPECT_TRUE(writeNpy(dir.file("x.npy"), x));
    const auto quantized = test::runCli({"quantize", model, "--calib", calib, "-o", dir.file("q.onnx")});
    EXPECT_EQ(quantized.exitCode, 0) << quantized.err;
    const auto exported =
        test::runCli({"run", dir.file("q.onnx"), "--input", "x=" + dir.file("x.npy"), "--out", dir.file("q")});
    EXPECT_EQ(exported.exitCode, 0) << exported.err;
    const auto simulated =
        test::runCli({"run", model, "--input", "x=" + dir.file("x.npy"), "--out", dir.file("s"), "--simulate", calib});
    EXPECT_EQ(simulated.exitCode, 0) << simulated.err;
    auto q = readNpy(dir.file("q/y.npy"));
    auto s = readNpy(dir.file("s/y.npy"));
    if (!q || !s) return {};
    return {q->toFloats(), s->toFloats()};
}

// `run --simulate` on the FP32 model and `run` on the exported Q/DQ model compute the same thing.
TEST(QuantizeCliTest, ExportedModelMatchesTheSimulationOfThePlan) {
    TempDir dir;
    const auto model = writeModel(dir);
    const auto calib = writeCalibration(dir);
    const auto [a, b] = runExportedAndSimulated(dir, model, calib, {1, 3, 6, 6});
    ASSERT_EQ(a.size(), b.size());
    ASSERT_FALSE(a.empty());
    for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 1e-5f * std::max(1.0f, std::fabs(b[i]))) << i;
    auto fp32 = test::runCli({"run", model, "--input", "x=" + dir.file("x.npy"), "--out", dir.file("f")});
    ASSERT_EQ(fp32.exitCode, 0);
    EXPECT_NE(readNpy(dir.file("f/y.npy"))->toFloats(), b);  // the simulation is not FP32
}

// A minmax CALIB.json giving every listed activation the range [-amax, amax], and no weights.
void writeMinMaxCalibration(const std::string& path, const std::vector<std::string>& names, double amax) {
    nlohmann::json activations;
    for (const std::string& name : names)
        activations[name] = {{"amax", amax}, {"min", -amax}, {"max", amax}, {"nonFinite", 0}};
    const nlohmann::json calib = {{"format", "quantlens-calibration"},
                                  {"version", 1},
                                  {"method", "minmax"},
                                  {"samples", 4},
                                  {"activations", activations},
                                  {"weights", nlohmann::json::object()}};
    test::writeFile(path, calib.dump());
}

// An aligned conv and a depthwise conv with 6 channels, which TensorRT 10 runs in float
// (trt-grouped-conv-int8-alignment), with a calibration of every activation.
std::pair<std::string, std::string> writeDepthwiseModel(const TempDir& dir) {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {1, 16, 8, 8});
    b.initializer("w1", {6, 16, 1, 1}, test::seededFloats(96));
    b.initializer("w2", {6, 1, 3, 3}, test::seededFloats(54, 2));
    b.node("Conv", {"x", "w1"}, {"c1"}, "conv1");
    b.node("Relu", {"c1"}, {"r1"}, "relu1");
    b.node("Conv", {"r1", "w2"}, {"y"}, "dw").i("group", 6).ints("pads", {1, 1, 1, 1});
    b.output("y");
    b.save(dir.file("dw.onnx"));
    writeMinMaxCalibration(dir.file("dw_calib.json"), {"x", "c1", "r1", "y"}, 3.0);
    return {dir.file("dw.onnx"), dir.file("dw_calib.json")};
}

// `quantize` applies TensorRT's fallbacks as `compare` does: the depthwise layer gets no Q/DQ and the summary
// gives the lint rule as its reason; `run --simulate` applies the same plan, so it equals the exported model.
TEST(QuantizeCliTest, LayersTensorRtRunsInFloatGetNoQdqAndTheRuleAsReason) {
    TempDir dir;
    const auto [model, calib] = writeDepthwiseModel(dir);
    const auto r =
        test::runCli({"quantize", model, "--calib", calib, "-o", dir.file("q.onnx"), "--summary", dir.file("s.json")});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    std::ifstream in(dir.file("s.json"));
    const auto summary = nlohmann::json::parse(in);
    for (const auto& edge : summary["qdq"]) EXPECT_NE(edge["layer"], "dw") << edge.dump();
    EXPECT_EQ(summary["qdq"].size(), 2u);  // conv1's input and weight
    bool found = false;
    for (const auto& layer : summary["layers"]) {
        if (layer["layer"] != "dw") continue;
        found = true;
        EXPECT_EQ(layer["precision"], "fp16");
        EXPECT_NE(layer["reason"].get<std::string>().find("trt-grouped-conv-int8-alignment"), std::string::npos)
            << layer.dump();
    }
    EXPECT_TRUE(found);
    EXPECT_EQ(dequantizeCount(dir.file("q.onnx")), 2);

    // Strongly typed (10.x's default): the FP16 layer is a float16 island in the file, and the simulation rounds it
    // to half as well, so the two agree to float rounding.
    const auto [a, b] = runExportedAndSimulated(dir, model, calib, {1, 16, 8, 8});
    ASSERT_EQ(a.size(), b.size());
    ASSERT_FALSE(a.empty());
    for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 1e-5f * std::max(1.0f, std::fabs(b[i]))) << i;
    // Weakly typed: the file keeps the layer in float32 (--fp16 decides on the GPU), so the executor runs it in FP32,
    // as the simulation does with the fallback in FP32.
    const auto weak = test::runCli({"quantize", model, "--calib", calib, "-o", dir.file("w.onnx"), "--typing", "weak"});
    ASSERT_EQ(weak.exitCode, 0) << weak.err;
    const auto exported =
        test::runCli({"run", dir.file("w.onnx"), "--input", "x=" + dir.file("x.npy"), "--out", dir.file("w")});
    ASSERT_EQ(exported.exitCode, 0) << exported.err;
    const auto fp32 = test::runCli({"run", model, "--input", "x=" + dir.file("x.npy"), "--out", dir.file("f"),
                                    "--simulate", calib, "--fallback", "fp32"});
    ASSERT_EQ(fp32.exitCode, 0) << fp32.err;
    const auto w = readNpy(dir.file("w/y.npy"))->toFloats();
    const auto f = readNpy(dir.file("f/y.npy"))->toFloats();
    ASSERT_EQ(f.size(), w.size());
    for (size_t i = 0; i < w.size(); ++i) EXPECT_NEAR(w[i], f[i], 1e-5f * std::max(1.0f, std::fabs(f[i]))) << i;
}

// Conv -> BatchNormalization -> Relu -> Conv -> BatchNormalization -> residual Add, as torch exports in training
// mode and Keras converters write: the export folds both BatchNormalizations before quantizing the weights, and
// the simulation quantizes the same folded weights (and fuses the Add with the second Conv through its
// BatchNormalization), so the two agree to float rounding.
std::pair<std::string, std::string> writeBatchNormModel(const TempDir& dir) {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {1, 4, 8, 8});
    for (const char* layer : {"0", "1"}) {
        const std::string l = layer;
        b.initializer("w" + l, {4, 4, 3, 3}, test::seededFloats(144, 11 + std::stoi(l)));
        b.initializer("b" + l, {4}, test::seededFloats(4, 21 + std::stoi(l)));
        b.initializer("gamma" + l, {4}, {0.5f, 2.0f, -1.5f, 0.25f});
        b.initializer("beta" + l, {4}, test::seededFloats(4, 31 + std::stoi(l)));
        b.initializer("mean" + l, {4}, test::seededFloats(4, 41 + std::stoi(l)));
        b.initializer("var" + l, {4}, test::seededFloats(4, 51 + std::stoi(l), 0.1f, 3.0f));
    }
    b.node("Conv", {"x", "w0", "b0"}, {"c0"}, "conv0").ints("pads", {1, 1, 1, 1});
    b.node("BatchNormalization", {"c0", "gamma0", "beta0", "mean0", "var0"}, {"n0"}, "bn0").f("epsilon", 1e-3f);
    b.node("Relu", {"n0"}, {"r0"}, "relu0");
    b.node("Conv", {"r0", "w1", "b1"}, {"c1"}, "conv1").ints("pads", {1, 1, 1, 1});
    b.node("BatchNormalization", {"c1", "gamma1", "beta1", "mean1", "var1"}, {"n1"}, "bn1");
    b.node("Add", {"n1", "r0"}, {"y"}, "add");
    b.output("y");
    b.save(dir.file("bn.onnx"));
    writeMinMaxCalibration(dir.file("bn_calib.json"), {"x", "c0", "n0", "r0", "c1", "n1", "y"}, 6.0);
    return {dir.file("bn.onnx"), dir.file("bn_calib.json")};
}

TEST(QuantizeCliTest, SimulationQuantizesTheWeightsTheExportFoldsBatchNormalizationInto) {
    TempDir dir;
    const auto [model, calib] = writeBatchNormModel(dir);
    const auto [a, b] = runExportedAndSimulated(dir, model, calib, {1, 4, 8, 8});
    ASSERT_EQ(a.size(), 256u);
    ASSERT_EQ(b.size(), 256u);
    float magnitude = 0.0f;
    for (float v : b) magnitude = std::max(magnitude, std::fabs(v));
    for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 1e-5f * magnitude) << i;
}

TEST(QuantizeCliTest, TrtAndFallbackOptionsAreChecked) {
    TempDir dir;
    const auto [model, calib] = writeDepthwiseModel(dir);
    const auto q = test::runCli({"quantize", model, "--calib", calib, "-o", dir.file("q.onnx"), "--trt", "7"});
    EXPECT_EQ(q.exitCode, 2);
    EXPECT_NE(q.err.find("--trt 7"), std::string::npos) << q.err;
    for (const std::vector<std::string>& option : {std::vector<std::string>{"--trt", "10"}, {"--fallback", "fp32"}}) {
        const auto run = test::runCli({"run", model, option[0], option[1]});
        EXPECT_EQ(run.exitCode, 2) << option[0];
        EXPECT_NE(run.err.find("need --simulate"), std::string::npos) << run.err;
    }
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

// conv, relu (INT8 by default) -> soft, sig (FP16 by default: float16 islands for --trt 11) -> y.
std::pair<std::string, std::string> writeIslandModel(const TempDir& dir) {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {1, 3, 6, 6});
    b.initializer("w", {4, 3, 3, 3}, test::seededFloats(108));
    b.node("Conv", {"x", "w"}, {"c"}, "conv");
    b.node("Relu", {"c"}, {"r"}, "relu");
    b.node("Softmax", {"r"}, {"s"}, "soft").i("axis", 1);
    b.node("Sigmoid", {"s"}, {"y"}, "sig");
    b.output("y");
    b.save(dir.file("islands.onnx"));
    writeMinMaxCalibration(dir.file("islands_calib.json"), {"x", "c", "r", "s", "y"}, 3.0);
    return {dir.file("islands.onnx"), dir.file("islands_calib.json")};
}

// quantize --trt 11 writes FP16 islands; the strongly typed model reads back: quantize re-exports the same islands
// and scales from it, lint finds no error, run runs it.
TEST(QuantizeCliTest, StronglyTypedExportReexportsTheSameIslandsAndScales) {
    TempDir dir;
    const auto [model, calib] = writeIslandModel(dir);
    const std::string q11 = dir.file("q11.onnx");
    const auto first =
        test::runCli({"quantize", model, "--calib", calib, "--trt", "11", "-o", q11, "--summary", dir.file("s1.json")});
    ASSERT_EQ(first.exitCode, 0) << first.err;
    const auto again = test::runCli({"quantize", q11, "--calib", q11, "--trt", "11", "-o", dir.file("again.onnx"),
                                     "--summary", dir.file("s2.json")});
    ASSERT_EQ(again.exitCode, 0) << again.err;
    EXPECT_NE(again.out.find("Q/DQ model with 2 FP16 island nodes"), std::string::npos) << again.out;
    const auto s1 = nlohmann::json::parse(readText(dir.file("s1.json")));
    const auto s2 = nlohmann::json::parse(readText(dir.file("s2.json")));
    EXPECT_EQ(s1["fp16_islands"]["nodes"], 2);
    EXPECT_EQ(s2["fp16_islands"], s1["fp16_islands"]);
    EXPECT_EQ(s2["layers"], s1["layers"]);
    ASSERT_EQ(s1["qdq"].size(), 2u);
    EXPECT_EQ(s2["qdq"], s1["qdq"]);

    const auto lint = test::runCli({"lint", q11, "--trt", "11", "--json"});
    EXPECT_EQ(lint.exitCode, 0) << lint.err;
    const auto lintJson = nlohmann::json::parse(lint.out);  // a temporary's member would dangle in the loop
    for (const auto& finding : lintJson["findings"]) EXPECT_NE(finding["severity"], "error") << finding.dump();

    Tensor x(DataType::Float, {1, 3, 6, 6});
    const auto values = test::seededFloats(108, 3, -2.0f, 2.0f);
    std::copy(values.begin(), values.end(), x.data<float>());
    ASSERT_TRUE(writeNpy(dir.file("x.npy"), x));
    const auto run = test::runCli({"run", q11, "--input", "x=" + dir.file("x.npy"), "--out", dir.file("out")});
    EXPECT_EQ(run.exitCode, 0) << run.err;
    EXPECT_TRUE(std::filesystem::exists(dir.file("out/y.npy")));
}

// An ONNX Runtime static QOperator model: QuantizeLinear -> QLinearConv -> DequantizeLinear.
std::string writeQOperatorModel(const TempDir& dir) {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {1, 3, 6, 6});
    b.initializer("xs", {}, {2.0f / 255});
    b.initializer("xz", DataType::UInt8, {}, {128});
    std::vector<double> w;
    for (float f : test::seededFloats(108, 5, -127.0f, 127.0f)) w.push_back(std::round(f));
    b.initializer("w", DataType::Int8, {4, 3, 3, 3}, w);
    b.initializer("ws", {4}, {0.002f, 0.003f, 0.001f, 0.002f});
    b.initializer("wz", DataType::Int8, {4}, {0, 0, 0, 0});
    b.initializer("ys", {}, {0.05f});
    b.initializer("yz", DataType::UInt8, {}, {128});
    b.node("QuantizeLinear", {"x", "xs", "xz"}, {"xq"});
    b.node("QLinearConv", {"xq", "xs", "xz", "w", "ws", "wz", "ys", "yz"}, {"yq"}, "conv");
    b.node("DequantizeLinear", {"yq", "ys", "yz"}, {"y"});
    b.output("y");
    b.save(dir.file("qop.onnx"));
    return dir.file("qop.onnx");
}

std::multiset<std::string> opTypesOf(const std::string& path) {
    auto model = Model::load(path);
    EXPECT_TRUE(model) << model.status().message();
    std::multiset<std::string> ops;
    if (model)
        for (const Node& node : (*model)->graph().nodes()) ops.insert(node.opType);
    return ops;
}

// quantize --float-import on a QOperator model: the float model it was made from (its scales kept as calibration),
// and a Q/DQ export of it that TensorRT can build (lint: no error).
TEST(QuantizeCliTest, FloatImportOfAQOperatorModelWritesTheFloatModelAndAQdqExport) {
    TempDir dir;
    const auto model = writeQOperatorModel(dir);
    const auto r = test::runCli(
        {"quantize", model, "--calib", model, "--float-import", dir.file("float.onnx"), "-o", dir.file("q.onnx")});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("float.onnx: the FP32 model"), std::string::npos) << r.out;
    const auto floatOps = opTypesOf(dir.file("float.onnx"));
    EXPECT_EQ(floatOps.count("Conv"), 1u);
    EXPECT_EQ(floatOps.count("QLinearConv"), 0u);
    EXPECT_EQ(floatOps.count("QuantizeLinear"), 0u);
    const auto exportedOps = opTypesOf(dir.file("q.onnx"));
    EXPECT_EQ(exportedOps.count("QLinearConv"), 0u);
    EXPECT_EQ(exportedOps.count("Conv"), 1u);
    EXPECT_EQ(dequantizeCount(dir.file("q.onnx")), 2);  // the input and the weight
    const auto lint = test::runCli({"lint", dir.file("q.onnx"), "--json"});
    EXPECT_EQ(lint.exitCode, 0) << lint.err;
    const nlohmann::json findings = nlohmann::json::parse(lint.out);  // alive while the loop walks it
    for (const auto& finding : findings["findings"]) EXPECT_NE(finding["severity"], "error") << finding.dump();
}

// x [N,3,6,6] -> conv -> relu: a dynamic batch.
std::string writeDynamicModel(const TempDir& dir) {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {-1, 3, 6, 6});
    b.initializer("w", {4, 3, 3, 3}, test::seededFloats(108));
    b.node("Conv", {"x", "w"}, {"c"}, "conv");
    b.node("Relu", {"c"}, {"y"}, "relu");
    b.output("y");
    b.save(dir.file("dyn.onnx"));
    return dir.file("dyn.onnx");
}

// A real calibration of 10 samples: batches of 8 and 2.
std::string calibrateDynamicModel(const TempDir& dir, const std::string& model) {
    EXPECT_TRUE(writeNpy(dir.file("data.npy"),
                         Tensor::fromVector(DataType::Float, {10, 3, 6, 6}, test::seededFloats(1080, 4))));
    const auto r = test::runCli(
        {"calibrate", model, "--data", dir.file("data.npy"), "--method", "minmax", "-o", dir.file("dyn_calib.json")});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    return dir.file("dyn_calib.json");
}

TEST(QuantizeCliTest, TheScriptGivesADynamicInputTheShapesCalibrationRanOrThoseOfShapes) {
    TempDir dir;
    const auto model = writeDynamicModel(dir);
    const auto calib = calibrateDynamicModel(dir, model);
    std::ifstream in(calib);
    const auto recorded = nlohmann::json::parse(in)["input_shapes"]["x"];
    EXPECT_EQ(recorded, nlohmann::json::parse(R"({"min": [2,3,6,6], "opt": [8,3,6,6], "max": [8,3,6,6]})"));
    const std::vector<std::string> base = {
        "quantize",           model,       "--calib",         calib, "-o", dir.file("q.onnx"), "--trtexec",
        dir.file("build.sh"), "--summary", dir.file("s.json")};
    auto r = test::runCli(base);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(readText(dir.file("build.sh"))
                  .find(" \\\n  --minShapes=x:1x3x6x6 --optShapes=x:8x3x6x6 --maxShapes=x:8x3x6x6\n"),
              std::string::npos)
        << readText(dir.file("build.sh"));
    std::ifstream summaryIn(dir.file("s.json"));
    const auto shapes = nlohmann::json::parse(summaryIn)["script"]["shapes"];
    EXPECT_EQ(shapes["inputs"][0]["source"], "calibration") << shapes;
    EXPECT_TRUE(shapes["missing"].empty()) << shapes;
    auto given = base;
    given.insert(given.end(), {"--shapes", "x=1x3x6x6:4x3x6x6:16x3x6x6"});
    r = test::runCli(given);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(readText(dir.file("build.sh")).find("--minShapes=x:1x3x6x6 --optShapes=x:4x3x6x6 --maxShapes=x:16x3x6x6"),
              std::string::npos)
        << readText(dir.file("build.sh"));
    given.back() = "x=4x3x6x6";  // one shape: min = opt = max
    r = test::runCli(given);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(readText(dir.file("build.sh")).find("--minShapes=x:4x3x6x6 --optShapes=x:4x3x6x6 --maxShapes=x:4x3x6x6"),
              std::string::npos)
        << readText(dir.file("build.sh"));
}

TEST(QuantizeCliTest, ADynamicInputWithoutShapesIsNamedAndTheScriptStaysValid) {
    TempDir dir;
    const auto model = writeDynamicModel(dir);
    writeMinMaxCalibration(dir.file("old_calib.json"), {"x", "c", "y"}, 3.0);  // written before input_shapes
    const auto r = test::runCli({"quantize", model, "--calib", dir.file("old_calib.json"), "-o", dir.file("q.onnx"),
                                 "--trtexec", dir.file("build.sh"), "--summary", dir.file("s.json")});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.err.find("warning: input 'x' [N,3,6,6] has dynamic dimensions"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("give --shapes x=MIN:OPT:MAX, each like Nx3x6x6"), std::string::npos) << r.err;
    const std::string script = readText(dir.file("build.sh"));
    EXPECT_EQ(script.find("Shapes="), std::string::npos) << script;
    EXPECT_NE(script.find("# Input 'x' [N,3,6,6] has dynamic dimensions and no shapes"), std::string::npos) << script;
    const auto sh = test::runProcess({"/bin/sh", "-n", dir.file("build.sh")});  // parses as a shell script
    EXPECT_EQ(sh.exitCode, 0) << sh.err;
    std::ifstream in(dir.file("s.json"));
    EXPECT_EQ(nlohmann::json::parse(in)["script"]["shapes"]["missing"], nlohmann::json::array({"x"}));
}

TEST(QuantizeCliTest, BadShapesExitTwoNamingTheOptionTheInputAndWhatToWrite) {
    TempDir dir;
    const auto model = writeDynamicModel(dir);
    writeMinMaxCalibration(dir.file("c.json"), {"x", "c", "y"}, 3.0);
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"x=1x3", "the model declares 4 dimensions [N,3,6,6], the shapes have 2"},
        {"images=1x3x6x6", "the model has no input 'images' (its inputs: x)"},
        {"x=1x3x6x6:2x3x6x6", "give 1 shape or 3 (min:opt:max), not 2"},
        {"x=8x3x6x6:4x3x6x6:16x3x6x6", "dimension 0 must grow from min to opt to max (8, 4, 16)"},
        {"x=1x4x6x6", "dimension 1 is fixed at 3 in the model [N,3,6,6], the shapes give 4"},
        {"x=1xCx6x6", "'C' in '1xCx6x6' is not a dimension"},
        {"1x3x6x6", "no '=' after the input name"},
        {"=1x3x6x6", "no input name before '='"},
    };
    for (const auto& [text, why] : cases) {
        const auto r = test::runCli({"quantize", model, "--calib", dir.file("c.json"), "-o", dir.file("q.onnx"),
                                     "--trtexec", dir.file("build.sh"), "--shapes", text});
        EXPECT_EQ(r.exitCode, 2) << text;
        EXPECT_NE(r.err.find("--shapes"), std::string::npos) << r.err;
        EXPECT_NE(r.err.find(why), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("write NAME=MINxDIMS:OPTxDIMS:MAXxDIMS"), std::string::npos) << r.err;
        EXPECT_FALSE(std::filesystem::exists(dir.file("q.onnx"))) << text;
        EXPECT_FALSE(std::filesystem::exists(dir.file("build.sh"))) << text;
    }
}

// quantize ran in one folder with relative paths; the script runs from another and still finds the model.
TEST(QuantizeCliTest, TheScriptNamesItsFilesFromItsOwnFolder) {
    TempDir dir;
    writeModel(dir);
    writeCalibration(dir);
    std::filesystem::create_directories(dir.file("out"));
    std::filesystem::create_directories(dir.file("scripts"));
    const auto r = test::runProcess({"/bin/sh", "-c",
                                     "cd \"$0\" && \"$1\" quantize m.onnx --calib calib.json "
                                     "-o out/q.onnx --trtexec scripts/build.sh --trt 11",
                                     dir.path(), QL_CLI_PATH});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    // A stand-in trtexec that says where it runs and whether --onnx names a file there.
    test::writeFile(dir.file("trtexec"),
                    "#!/bin/sh\nfor a in \"$@\"; do case \"$a\" in --onnx=*) f=\"${a#--onnx=}\";\n"
                    "test -f \"$f\" && echo \"model $f in $(basename \"$PWD\")\";; esac; done\n");
    std::filesystem::permissions(dir.file("trtexec"), std::filesystem::perms::owner_all);
    const auto run = test::runProcess(
        {"/bin/sh", "-c", "cd / && PATH=\"$0:$PATH\" sh \"$1\"", dir.path(), dir.file("scripts/build.sh")});
    ASSERT_EQ(run.exitCode, 0) << run.err;
    EXPECT_EQ(run.out, "model ../out/q.onnx in scripts\n") << readText(dir.file("scripts/build.sh"));
}

}  // namespace
}  // namespace ql
