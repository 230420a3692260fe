// quantlens-cli lint: JSON contract, text report, --trt, --typing, --command, --plan, --fail-on and exit codes.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.h"
#include "tests/support/model_builder.h"
#include "tests/support/operator_form_model.h"

namespace ql {
namespace {

using test::ModelBuilder;
using test::TempDir;

// FP32: an aligned conv and a 6-channel depthwise conv (a warning and an INT8 fallback on TensorRT 10).
ModelBuilder depthwiseModel() {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 16, 8, 8});
    b.initializer("w1", {16, 16, 1, 1}, test::seededFloats(256));
    b.initializer("w2", {16, 1, 3, 3}, test::seededFloats(144));
    b.initializer("w3", {6, 16, 1, 1}, test::seededFloats(96));
    b.initializer("w4", {6, 1, 3, 3}, test::seededFloats(54));
    b.node("Conv", {"x", "w1"}, {"c1"}, "conv1");
    b.node("Conv", {"c1", "w2"}, {"c2"}, "dw16").i("group", 16).ints("pads", {1, 1, 1, 1});
    b.node("Conv", {"c2", "w3"}, {"c3"}, "conv3");
    b.node("Conv", {"c3", "w4"}, {"y"}, "dw6").i("group", 6).ints("pads", {1, 1, 1, 1});
    b.output("y");
    return b;
}

// A model with an operator TensorRT cannot import.
ModelBuilder unsupportedModel() {
    ModelBuilder b;
    b.input("x", DataType::Float, {3, 3});
    b.node("Det", {"x"}, {"y"}, "det");
    b.output("y");
    return b;
}

TEST(LintCliTest, JsonHasTheContractKeys) {
    TempDir dir;
    depthwiseModel().save(dir.file("m.onnx"));
    const auto r = test::runCli({"lint", dir.file("m.onnx"), "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;  // warnings only, default fail level is error
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_TRUE(j.contains("findings"));
    bool sawDepthwise = false;
    for (const auto& f : j["findings"]) {
        for (const char* key : {"rule", "severity", "node", "op", "message", "fix"})
            EXPECT_TRUE(f.contains(key)) << key;
        if (f["rule"] == "trt-grouped-conv-int8-alignment") {
            sawDepthwise = true;
            EXPECT_EQ(f["node"], "dw6");
            EXPECT_EQ(f["severity"], "warning");
        }
    }
    EXPECT_TRUE(sawDepthwise) << r.out;
    EXPECT_EQ(j["coverage"]["weighted_layers"], 4);
    EXPECT_EQ(j["coverage"]["int8_layers"], 3);
    ASSERT_EQ(j["coverage"]["fallbacks"].size(), 1u);
    EXPECT_EQ(j["coverage"]["fallbacks"][0]["node"], "dw6");
}

TEST(LintCliTest, TextGroupsBySeverityAndEndsWithCoverage) {
    TempDir dir;
    depthwiseModel().save(dir.file("m.onnx"));
    const auto r = test::runCli({"lint", dir.file("m.onnx")});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("warning:"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("[trt-grouped-conv-int8-alignment] dw6 (Conv)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("3 of 4 weighted layers run INT8; 1 fall back: trt-grouped-conv-int8-alignment (1)"),
              std::string::npos)
        << r.out;
}

TEST(LintCliTest, FailOnWarningTurnsWarningsIntoExitOne) {
    TempDir dir;
    depthwiseModel().save(dir.file("m.onnx"));
    EXPECT_EQ(test::runCli({"lint", dir.file("m.onnx"), "--fail-on", "warning"}).exitCode, 1);
    EXPECT_EQ(test::runCli({"lint", dir.file("m.onnx"), "--fail-on", "error"}).exitCode, 0);
}

TEST(LintCliTest, ErrorsExitOne) {
    TempDir dir;
    unsupportedModel().save(dir.file("det.onnx"));
    const auto r = test::runCli({"lint", dir.file("det.onnx"), "--json"});
    EXPECT_EQ(r.exitCode, 1) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["findings"].size(), 1u);
    EXPECT_EQ(j["findings"][0]["rule"], "trt-unsupported-op");
    EXPECT_EQ(j["findings"][0]["severity"], "error");
}

// The Q/DQ detector trap (ultralytics#1695): boxes and Sigmoid scores enter one Concat through Q/DQ pairs that share
// the box scale (640/127). Without a calibration, lint fails on it: every score rounds to 0.
TEST(LintCliTest, SigmoidScoresUnderTheBoxScaleFailWithoutACalibration) {
    ModelBuilder b;
    b.input("boxes", DataType::Float, {1, 4, 8});
    b.input("logits", DataType::Float, {1, 3, 8});
    b.initializer("box_scale", {}, {640.0f / 127.0f});
    b.initializer("zp", DataType::Int8, {}, {0});
    b.node("Sigmoid", {"logits"}, {"scores"}, "score_sigmoid");
    for (const std::string t : {"boxes", "scores"}) {
        b.node("QuantizeLinear", {t, "box_scale", "zp"}, {t + "_q"}, t + "_q");
        b.node("DequantizeLinear", {t + "_q", "box_scale", "zp"}, {t + "_dq"}, t + "_dq");
    }
    b.node("Concat", {"boxes_dq", "scores_dq"}, {"y"}, "output_concat").i("axis", 1);
    b.output("y");
    TempDir dir;
    b.save(dir.file("detector.onnx"));
    const auto r = test::runCli({"lint", dir.file("detector.onnx"), "--json"});
    EXPECT_EQ(r.exitCode, 1) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    int errors = 0;
    for (const auto& f : j["findings"])
        if (f["rule"] == "trt-bounded-range-codes" && f["severity"] == "error") {
            ++errors;
            EXPECT_NE(f["message"].get<std::string>().find("every value of 'scores'"), std::string::npos) << f;
        }
    EXPECT_EQ(errors, 1) << r.out;
}

// ONNX Runtime's dynamic quantization (ConvInteger + DynamicQuantizeLinear): TensorRT cannot parse the file as shipped.
// lint says so once per operator, with the fix, and goes on with the float import (its two Convs).
TEST(LintCliTest, OperatorFormFileIsAnErrorAsShippedAndAnalysedOnItsFloatImport) {
    TempDir dir;
    test::operatorFormModel().save(dir.file("dyn.onnx"));
    const auto text = test::runCli({"lint", dir.file("dyn.onnx"), "--fail-on", "error"});
    EXPECT_EQ(text.exitCode, 1) << text.out << text.err;
    for (const char* part :
         {"dyn.onnx: ONNX Runtime operator form (DynamicQuantizeLinear, ConvInteger): TensorRT "
          "cannot parse the file as shipped; the analysis continues on the float model",
          "[trt-unsupported-op] conv1_quant (ConvInteger): ConvInteger (2 nodes) is ONNX Runtime's",
          "export Q/DQ instead: `quantlens-cli quantize MODEL --calib", "2 error(s)", "of 2 weighted layers run INT8"})
        EXPECT_NE(text.out.find(part), std::string::npos) << part << "\n" << text.out;

    const auto r = test::runCli({"lint", dir.file("dyn.onnx"), "--json"});
    EXPECT_EQ(r.exitCode, 1) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["operator_form"]["ops"], nlohmann::json({"DynamicQuantizeLinear", "ConvInteger"}));
    EXPECT_NE(j["operator_form"]["note"].get<std::string>().find("continues on the float model"), std::string::npos);
    std::vector<std::string> errors;
    for (const auto& f : j["findings"])
        if (f["severity"] == "error") errors.push_back(f["op"].get<std::string>() + " " + f["rule"].get<std::string>());
    EXPECT_EQ(errors,
              (std::vector<std::string>{"DynamicQuantizeLinear trt-unsupported-op", "ConvInteger trt-unsupported-op"}));
    EXPECT_EQ(j["coverage"]["weighted_layers"], 2);  // the float import's Convs

    // Ignoring the rule leaves the analysis of the float import, still said to be one.
    const auto ignored = test::runCli({"lint", dir.file("dyn.onnx"), "--ignore", "trt-unsupported-op"});
    EXPECT_EQ(ignored.exitCode, 0) << ignored.out;
    EXPECT_NE(ignored.out.find("continues on the float model"), std::string::npos) << ignored.out;
}

TEST(LintCliTest, PlanKeepsALayerOutOfInt8) {
    TempDir dir;
    depthwiseModel().save(dir.file("m.onnx"));
    test::writeFile(dir.file("plan.json"), R"({"format": "quantlens-plan", "version": 1, "nodes": {"dw6": "fp16"}})");
    const auto r = test::runCli({"lint", dir.file("m.onnx"), "--plan", dir.file("plan.json"), "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    for (const auto& f : j["findings"]) EXPECT_NE(f["rule"], "trt-grouped-conv-int8-alignment");
    EXPECT_EQ(j["coverage"]["int8_layers"], 3);
    EXPECT_TRUE(j["coverage"]["fallbacks"].empty());
}

TEST(LintCliTest, TrtVersionSwitchesVersionDependentRules) {
    // A 6-channel depthwise conv with Q/DQ: the 8.6 build fails, 10.x falls back.
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 6, 8, 8});
    b.initializer("w", {6, 1, 3, 3}, test::seededFloats(54));
    for (const char* t : {"x", "w"}) {
        b.initializer(std::string(t) + "_s", {}, {0.02f});
        b.initializer(std::string(t) + "_z", DataType::Int8, {}, {0});
        b.node("QuantizeLinear", {t, std::string(t) + "_s", std::string(t) + "_z"}, {std::string(t) + "_q"});
        b.node("DequantizeLinear", {std::string(t) + "_q", std::string(t) + "_s", std::string(t) + "_z"},
               {std::string(t) + "_dq"});
    }
    b.node("Conv", {"x_dq", "w_dq"}, {"y"}, "dw").i("group", 6).ints("pads", {1, 1, 1, 1});
    b.output("y");
    TempDir dir;
    b.save(dir.file("q.onnx"));
    EXPECT_EQ(test::runCli({"lint", dir.file("q.onnx"), "--trt", "8.6"}).exitCode, 1);
    EXPECT_EQ(test::runCli({"lint", dir.file("q.onnx"), "--trt", "10"}).exitCode, 0);
}

// The script `quantize --trtexec` writes for 8.6/10.x, linted for TensorRT 11: the finding is on no node.
TEST(LintCliTest, CommandFlagsRemovedInTrt11AreErrors) {
    TempDir dir;
    depthwiseModel().save(dir.file("m.onnx"));
    test::writeFile(dir.file("script.sh"),
                    "#!/bin/sh\ntrtexec --onnx=m.onnx --int8 --fp16 --saveEngine=m.engine \\\n"
                    "  --precisionConstraints=obey \\\n  '--layerPrecisions=dw6:fp16'\n");
    const auto r = test::runCli({"lint", dir.file("m.onnx"), "--trt", "11", "--command", dir.file("script.sh"),
                                 "--json", "--fail-on", "error"});
    EXPECT_EQ(r.exitCode, 1) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    int flagFindings = 0;
    for (const auto& f : j["findings"]) {
        if (f["rule"] != "trt-precision-flags") continue;
        ++flagFindings;
        EXPECT_EQ(f["severity"], "error");
        EXPECT_TRUE(f["node"].is_null()) << f.dump();
        EXPECT_TRUE(f["op"].is_null()) << f.dump();
    }
    EXPECT_EQ(flagFindings, 2) << r.out;  // --int8 --fp16, and the layer pinning

    const auto text = test::runCli({"lint", dir.file("m.onnx"), "--trt", "11", "--command", dir.file("script.sh")});
    EXPECT_EQ(text.exitCode, 1) << text.err;
    EXPECT_NE(text.out.find("[trt-precision-flags] trtexec (line 2): --int8 --fp16: removed in TensorRT 11.0"),
              std::string::npos)
        << text.out;
}

TEST(LintCliTest, TypingSelectsHowTheCommandIsJudged) {
    TempDir dir;
    depthwiseModel().save(dir.file("m.onnx"));
    test::writeFile(dir.file("weak.sh"), "trtexec --onnx=m.onnx --int8 --fp16\n");
    const auto strong = test::runCli(
        {"lint", dir.file("m.onnx"), "--trt", "10", "--command", dir.file("weak.sh"), "--fail-on", "warning"});
    EXPECT_EQ(strong.exitCode, 1) << strong.out;  // a weakly typed command for a strongly typed target
    const auto weak = test::runCli(
        {"lint", dir.file("m.onnx"), "--trt", "10", "--typing", "weak", "--command", dir.file("weak.sh"), "--json"});
    ASSERT_EQ(weak.exitCode, 0) << weak.err;
    bool sawDeprecation = false;
    const auto j = nlohmann::json::parse(weak.out);
    for (const auto& f : j["findings"])
        if (f["rule"] == "trt-precision-flags") sawDeprecation = f["severity"] == "info";
    EXPECT_TRUE(sawDeprecation) << weak.out;
}

TEST(LintCliTest, TypingAndCommandErrorsExitTwo) {
    TempDir dir;
    depthwiseModel().save(dir.file("m.onnx"));
    const auto weak11 = test::runCli({"lint", dir.file("m.onnx"), "--typing", "weak", "--trt", "11"});
    EXPECT_EQ(weak11.exitCode, 2);
    EXPECT_NE(weak11.err.find("builds only strongly typed networks"), std::string::npos) << weak11.err;
    EXPECT_EQ(test::runCli({"lint", dir.file("m.onnx"), "--typing", "strong", "--trt", "8.6"}).exitCode, 2);
    EXPECT_EQ(test::runCli({"lint", dir.file("m.onnx"), "--typing", "loose"}).exitCode, 2);
    const auto missing = test::runCli({"lint", dir.file("m.onnx"), "--command", dir.file("missing.sh")});
    EXPECT_EQ(missing.exitCode, 2);
    EXPECT_NE(missing.err.find("missing.sh"), std::string::npos) << missing.err;
    EXPECT_EQ(test::runCli({"lint", dir.file("m.onnx"), "--command", dir.path()}).exitCode, 2);
}

TEST(LintCliTest, BadInputExitsTwo) {
    TempDir dir;
    depthwiseModel().save(dir.file("m.onnx"));
    test::writeFile(dir.file("bad.onnx"), "not a model");
    test::writeFile(dir.file("bad_plan.json"),
                    R"({"format": "quantlens-plan", "version": 1, "nodes": {"nope": "int8"}})");
    EXPECT_EQ(test::runCli({"lint", dir.file("missing.onnx")}).exitCode, 2);
    EXPECT_EQ(test::runCli({"lint", dir.file("bad.onnx")}).exitCode, 2);
    EXPECT_EQ(test::runCli({"lint", dir.file("m.onnx"), "--trt", "7"}).exitCode, 2);
    EXPECT_EQ(test::runCli({"lint", dir.file("m.onnx"), "--fail-on", "info"}).exitCode, 2);
    const auto r = test::runCli({"lint", dir.file("m.onnx"), "--plan", dir.file("bad_plan.json")});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("nope"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace ql
