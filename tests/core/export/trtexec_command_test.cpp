// The trtexec command written beside an exported model: exact text, shell parsing, names trtexec cannot take.
#include "core/export/trtexec_command.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/support/calibration_fixture.h"
#include "tests/support/model_builder.h"
#include "tests/support/process.h"

namespace ql {
namespace {

using test::ModelBuilder;

// conv (INT8) -> relu (INT8) -> "head/soft max" (FP16) -> split (FP16, two outputs) -> "a:b" Sigmoid (FP32)
// and an unnamed Identity (FP32); an ArgMax (FP32, INT64 output) is never pinned.
QdqExport mixedPrecisionExport(const std::string& softmaxName = "head/soft max",
                               TrtTarget target = {TrtVersion::Trt10, TrtTyping::Weak},
                               Precision softmaxPrecision = Precision::Fp16) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 3, 6, 6});
    b.initializer("w", {4, 3, 3, 3}, test::seededFloats(108));
    b.node("Conv", {"x", "w"}, {"c"}, "conv");
    b.node("Relu", {"c"}, {"r"}, "relu");
    b.node("Softmax", {"r"}, {"s"}, softmaxName).i("axis", 1);
    b.node("Split", {"s"}, {"s1", "s2"}, "split").i("axis", 1);
    b.node("Sigmoid", {"s1"}, {"y1"}, "a:b");
    b.node("Identity", {"s2"}, {"y2"});
    b.node("ArgMax", {"s2"}, {"idx"}, "argmax").i("axis", 1);
    b.output("y1");
    b.output("y2");
    b.output("idx", DataType::Int64);
    auto model = b.load();
    const Graph& graph = model->graph();
    PrecisionPlan plan(graph, Precision::Fp32);
    plan.setRequested(*graph.findNode("conv"), Precision::Int8);
    plan.setRequested(*graph.findNode("relu"), Precision::Int8);
    plan.setRequested(*graph.findNode(softmaxName), softmaxPrecision);
    plan.setRequested(*graph.findNode("split"), Precision::Fp16);
    auto result = exportQdq(*model, plan, test::uniformCalibration(graph, {}, 3.0f), {}, {.trt = target});
    EXPECT_TRUE(result) << result.status().message();
    return result ? std::move(*result) : QdqExport{};
}

TEST(TrtexecCommandTest, WeakTypingPinsOnlyTheFp32LayersWithQuotedNames) {
    const auto result = mixedPrecisionExport();
    ASSERT_TRUE(result.prepared);
    auto text = trtexecCommand(result, "out dir/q.onnx", "quantlens-cli");
    ASSERT_TRUE(text) << text.status().message();
    EXPECT_EQ(*text,
              "#!/bin/sh\n"
              "# Builds the TensorRT 10.x engine of out dir/q.onnx (10.x, weakly typed; explicit Q/DQ INT8, FP16 where "
              "TensorRT chooses, layers the plan keeps in FP32 pinned). Written by quantlens-cli.\n"
              "trtexec '--onnx=out dir/q.onnx' --int8 --fp16 '--saveEngine=out dir/q.engine' \\\n"
              "  --precisionConstraints=obey \\\n"
              "  '--layerPrecisions='\\''a:b'\\'':fp32,node_of_y2:fp32' \\\n"
              "  '--layerOutputTypes='\\''a:b'\\'':fp32,node_of_y2:fp32'\n");
    const auto plan = trtexecPlan(result);
    ASSERT_TRUE(plan);
    EXPECT_EQ(plan->pinnedLayers, 2);
    EXPECT_EQ(plan->flags, (std::vector<std::string>{"--int8", "--fp16"}));
}

TEST(TrtexecCommandTest, StronglyTypedScriptsHaveNoPrecisionFlags) {
    const auto ten = mixedPrecisionExport("head", {TrtVersion::Trt10, TrtTyping::Strong});
    ASSERT_TRUE(ten.prepared);
    auto text = trtexecCommand(ten, "q.onnx", "quantlens-cli");
    ASSERT_TRUE(text) << text.status().message();
    EXPECT_EQ(text->substr(text->find("trtexec ")), "trtexec --onnx=q.onnx --stronglyTyped --saveEngine=q.engine\n");
    const auto eleven = mixedPrecisionExport("head", {TrtVersion::Trt11, TrtTyping::Strong});
    ASSERT_TRUE(eleven.prepared);
    text = trtexecCommand(eleven, "q.onnx", "quantlens-cli");
    ASSERT_TRUE(text);
    EXPECT_EQ(text->substr(text->find("trtexec ")), "trtexec --onnx=q.onnx --saveEngine=q.engine\n");
    for (const char* removed : {"--int8", "--fp16", "--best", "--layerPrecisions", "--precisionConstraints"})
        EXPECT_EQ(text->find(removed), std::string::npos) << removed;
    const auto plan = trtexecPlan(eleven);
    ASSERT_TRUE(plan);
    EXPECT_EQ(plan->pinnedLayers, 0);
    EXPECT_TRUE(plan->flags.empty());
    ASSERT_FALSE(plan->reliesOn.empty());
    EXPECT_NE(plan->reliesOn.front().find("float16 islands (2 nodes)"), std::string::npos) << plan->reliesOn.front();
}

// The window's export said "Written by quantlens-cli" too.
TEST(TrtexecCommandTest, TheHeaderNamesWhoWroteTheScript) {
    const auto result = mixedPrecisionExport("head", {TrtVersion::Trt10, TrtTyping::Strong});
    ASSERT_TRUE(result.prepared);
    const auto header = [&](std::string_view writer) {
        auto text = trtexecCommand(result, "q.onnx", writer);
        EXPECT_TRUE(text) << text.status().message();
        return text ? text->substr(0, text->find("\ntrtexec ")) : std::string();
    };
    EXPECT_TRUE(header("the QuantLens window").ends_with("no precision flags). Written by the QuantLens window."))
        << header("the QuantLens window");
    EXPECT_TRUE(header("").ends_with("no precision flags).")) << header("");
    EXPECT_EQ(header("").find("Written by"), std::string::npos);
}

TEST(TrtexecCommandTest, TheShellPassesTrtexecTheArgumentsItParses) {
    const auto result = mixedPrecisionExport();
    ASSERT_TRUE(result.prepared);
    test::TempDir dir;
    ASSERT_TRUE(saveTrtexecCommand(result, dir.file("out dir/q.onnx"), "quantlens-cli", dir.file("build.sh")));
    // A stand-in trtexec that prints each argument on its own line.
    {
        std::ofstream fake(dir.file("trtexec"));
        fake << "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done\n";
    }
    std::filesystem::permissions(dir.file("trtexec"), std::filesystem::perms::owner_all);
    const auto r =
        test::runProcess({"/bin/sh", "-c", "PATH=\"" + dir.path() + ":$PATH\" sh \"$0\"", dir.file("build.sh")});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.out,
              "--onnx=out dir/q.onnx\n--int8\n--fp16\n--saveEngine=out dir/q.engine\n--precisionConstraints=obey\n"
              "--layerPrecisions='a:b':fp32,node_of_y2:fp32\n"
              "--layerOutputTypes='a:b':fp32,node_of_y2:fp32\n");
}

TEST(TrtexecCommandTest, AllInt8ModelHasNoPrecisionFlags) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 3, 6, 6});
    b.initializer("w", {4, 3, 3, 3}, test::seededFloats(108));
    b.node("Conv", {"x", "w"}, {"y"}, "conv");
    b.output("y");
    auto model = b.load();
    auto result = exportQdq(*model, PrecisionPlan(model->graph(), Precision::Int8),
                            test::uniformCalibration(model->graph(), {}, 3.0f), {},
                            {.trt = {TrtVersion::Trt86, TrtTyping::Weak}});
    ASSERT_TRUE(result) << result.status().message();
    auto text = trtexecCommand(*result, "q.onnx", "quantlens-cli");
    ASSERT_TRUE(text);
    EXPECT_EQ(text->substr(text->find("trtexec ")), "trtexec --onnx=q.onnx --int8 --fp16 --saveEngine=q.engine\n");
}

// Weakly typed, a model without Q/DQ builds with --fp16 alone: --int8 would make trtexec quantize it with placeholder
// ranges (the all-FP16 variant of `quantize --ab-scripts`). Extra arguments (the report exports) follow --saveEngine.
TEST(TrtexecCommandTest, AWeakModelWithoutQdqGetsNoInt8FlagAndExtraArgumentsFollow) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 3, 6, 6});
    b.initializer("w", {4, 3, 3, 3}, test::seededFloats(108));
    b.node("Conv", {"x", "w"}, {"y"}, "conv");
    b.output("y");
    auto model = b.load();
    auto result = exportQdq(*model, PrecisionPlan(model->graph(), Precision::Fp16),
                            test::uniformCalibration(model->graph(), {}, 3.0f), {},
                            {.trt = {TrtVersion::Trt86, TrtTyping::Weak}});
    ASSERT_TRUE(result) << result.status().message();
    const TrtexecScript script{.onnxPath = "fp16.onnx",
                               .scriptPath = {},
                               .writer = "quantlens-cli",
                               .shapes = {},
                               .extraArguments = {"--exportProfile=fp16.profile.json", "--name=a b"}};
    auto text = trtexecCommand(*result, script);
    ASSERT_TRUE(text);
    EXPECT_EQ(text->substr(text->find("trtexec ")),
              "trtexec --onnx=fp16.onnx --fp16 --saveEngine=fp16.engine \\\n"
              "  --exportProfile=fp16.profile.json '--name=a b'\n");
    const auto plan = trtexecPlan(*result);
    ASSERT_TRUE(plan);
    EXPECT_EQ(plan->flags, std::vector<std::string>{"--fp16"});
}

TEST(TrtexecCommandTest, NamesTrtexecCannotParseAreRefusedNamingTheNode) {
    for (const std::string name : {"head,soft", "it's", "head*"}) {
        const auto result = mixedPrecisionExport(name, {TrtVersion::Trt10, TrtTyping::Weak}, Precision::Fp32);
        ASSERT_TRUE(result.prepared);
        auto text = trtexecCommand(result, "q.onnx", "quantlens-cli");
        ASSERT_FALSE(text) << name;
        EXPECT_NE(text.status().message().find("node '" + name + "'"), std::string::npos) << text.status().message();
    }
}

TEST(TrtexecCommandTest, ShellQuoteLeavesSafeTextAndQuotesTheRest) {
    EXPECT_EQ(shellQuote("--onnx=a/b.onnx"), "--onnx=a/b.onnx");
    EXPECT_EQ(shellQuote("a b"), "'a b'");
    EXPECT_EQ(shellQuote("it's"), "'it'\\''s'");
    EXPECT_EQ(shellQuote("$HOME"), "'$HOME'");
    EXPECT_EQ(shellQuote(""), "''");
}

}  // namespace
}  // namespace ql
