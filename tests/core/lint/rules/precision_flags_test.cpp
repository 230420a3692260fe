// trt-precision-flags: builder precision flags the target TensorRT removed or forbids, in a trtexec command or in a
// Q/DQ model that relies on them.
#include <gtest/gtest.h>

#include "core/quant/default_placement.h"
#include "tests/core/lint/lint_test_util.h"

namespace ql {
namespace {

constexpr const char* kRule = "trt-precision-flags";

// FP32, no Q/DQ: only the command can give findings.
std::unique_ptr<Model> floatModel() {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {1, 16, 8, 8});
    b.initializer("w", {16, 16, 1, 1}, test::seededFloats(256));
    b.node("Conv", {"x", "w"}, {"y"}, "conv");
    b.output("y");
    return b.load();
}

// x, w -> Q/DQ -> Conv (INT8) -> Relu (fused) -> GlobalAveragePool -> Flatten -> Gemm -> Softmax: three float
// layers outside INT8 (the pool, the Gemm and the Softmax). With `fp16Island` the pool runs between Casts to FP16
// and back, as `quantize --trt 11` writes it.
std::unique_ptr<Model> qdqModel(bool fp16Island) {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {1, 16, 8, 8});
    b.initializer("w", {16, 16, 1, 1}, test::seededFloats(256));
    b.initializer("fc_w", {16, 10}, test::seededFloats(160, 3));
    const std::string x = test::addQdq(b, "x");
    const std::string w = test::addQdq(b, "w", test::perTensor(0.01f));
    b.node("Conv", {x, w}, {"c"}, "conv");
    b.node("Relu", {"c"}, {"r"}, "relu");
    if (fp16Island) {
        b.node("Cast", {"r"}, {"r16"}, "to_fp16").i("to", 10);
        b.node("GlobalAveragePool", {"r16"}, {"p16"}, "pool");
        b.node("Cast", {"p16"}, {"p"}, "to_fp32").i("to", 1);
    } else {
        b.node("GlobalAveragePool", {"r"}, {"p"}, "pool");
    }
    b.node("Flatten", {"p"}, {"f"}, "flat");
    b.node("Gemm", {"f", "fc_w"}, {"logits"}, "fc");
    b.node("Softmax", {"logits"}, {"y"}, "softmax");
    b.output("y");
    return b.load();
}

std::vector<Finding> lintWith(const Model& model, TrtVersion version, TrtTyping typing, const std::string& command) {
    LintOptions options;
    options.version = version;
    options.typing = typing;
    options.trtexecCommand = command;
    std::vector<Finding> out;
    for (const Finding& f : lint(model.graph(), defaultPrecisionPlan(model.graph()), options).findings)
        if (f.ruleId == kRule) out.push_back(f);
    return out;
}

std::vector<Finding> commandFindings(TrtVersion version, TrtTyping typing, const std::string& command) {
    return lintWith(*floatModel(), version, typing, command);
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// The script `quantize --trtexec` writes (core/export/trtexec_command.cpp), with a quoted layer list.
const std::string kQuantizeScript =
    "#!/bin/sh\n"
    "# Builds the TensorRT engine of out/m.onnx (explicit Q/DQ INT8; layers the plan keeps in FP16/FP32 pinned).\n"
    "trtexec --onnx=out/m.onnx --int8 --fp16 --saveEngine=out/m.engine \\\n"
    "  --precisionConstraints=obey \\\n"
    "  '--layerPrecisions=head/Softmax:fp16,'\\''odd name'\\'':fp32' \\\n"
    "  '--layerOutputTypes=head/Softmax:fp16,'\\''odd name'\\'':fp32'\n";

// ---- TensorRT 11 ----------------------------------------------------------------------------------------------

TEST(PrecisionFlagsRuleTest, Trt11RejectsBuilderPrecisionFlags) {
    const auto f = commandFindings(TrtVersion::Trt11, TrtTyping::Strong, "trtexec --onnx=m.onnx --int8 --fp16");
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Error);
    EXPECT_EQ(f[0].node, kNoId);
    EXPECT_TRUE(contains(f[0].message, "--int8 --fp16: removed in TensorRT 11.0")) << f[0].message;
    EXPECT_TRUE(contains(f[0].fix, "drop --int8 --fp16")) << f[0].fix;
    EXPECT_TRUE(contains(f[0].fix, "quantlens-cli quantize --trt 11")) << f[0].fix;
}

TEST(PrecisionFlagsRuleTest, Trt11RejectsEveryPrecisionFlagByKind) {
    const auto f = commandFindings(TrtVersion::Trt11, TrtTyping::Strong,
                                   "trtexec --onnx=m.onnx --bf16 --fp8 --int4 --best --calib=m.cache "
                                   "--precisionConstraints=prefer --layerPrecisions=a:fp16 --layerOutputTypes=a:fp16");
    ASSERT_EQ(f.size(), 3u);
    for (const Finding& finding : f) EXPECT_EQ(finding.severity, Severity::Error) << finding.message;
    EXPECT_TRUE(contains(f[0].message, "--bf16 --fp8 --int4 --best: removed")) << f[0].message;
    EXPECT_TRUE(contains(f[1].message, "--calib: removed")) << f[1].message;
    EXPECT_TRUE(contains(f[2].message, "--precisionConstraints --layerPrecisions --layerOutputTypes: removed"))
        << f[2].message;
}

TEST(PrecisionFlagsRuleTest, Trt11StronglyTypedIsANoOp) {
    const auto f = commandFindings(TrtVersion::Trt11, TrtTyping::Strong, "trtexec --onnx=m.onnx --stronglyTyped");
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Info);
    EXPECT_TRUE(contains(f[0].message, "no-op")) << f[0].message;
}

TEST(PrecisionFlagsRuleTest, Trt11CleanCommandIsFine) {
    EXPECT_TRUE(
        commandFindings(TrtVersion::Trt11, TrtTyping::Strong, "trtexec --onnx=m.onnx --saveEngine=m.engine").empty());
}

// ---- TensorRT 10.x --------------------------------------------------------------------------------------------

TEST(PrecisionFlagsRuleTest, Trt10BestWithStronglyTypedIsRefused) {
    const auto f =
        commandFindings(TrtVersion::Trt10, TrtTyping::Strong, "trtexec --onnx=m.onnx --best --stronglyTyped");
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Error);
    EXPECT_TRUE(contains(f[0].message, "--best is incompatible with --stronglyTyped")) << f[0].message;
}

// trtexec 10.x disables these with an "Invalid usage" warning instead of failing: the flags are dead weight.
TEST(PrecisionFlagsRuleTest, Trt10PrecisionFlagsWithStronglyTypedAreIgnored) {
    const auto f = commandFindings(TrtVersion::Trt10, TrtTyping::Strong,
                                   "trtexec --onnx=m.onnx --int8 --fp16 --calib=m.cache --stronglyTyped");
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Warning);
    EXPECT_TRUE(contains(f[0].message, "--int8 --fp16 --calib with --stronglyTyped")) << f[0].message;
    EXPECT_TRUE(contains(f[0].message, "BuilderFlag::kFP16 is not compatible with a strongly typed network"))
        << f[0].message;
}

TEST(PrecisionFlagsRuleTest, Trt10LayerPinsWithStronglyTypedAreRefused) {
    const auto f = commandFindings(TrtVersion::Trt10, TrtTyping::Strong,
                                   "trtexec --onnx=m.onnx --stronglyTyped --precisionConstraints=obey "
                                   "--layerPrecisions=a:fp16");
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Error);
    EXPECT_TRUE(contains(f[0].message, "setOutputType cannot be called for a strongly typed network")) << f[0].message;
}

TEST(PrecisionFlagsRuleTest, Trt10LayerPinsWithoutConstraintsAreOnlyWarned) {
    const auto f = commandFindings(TrtVersion::Trt10, TrtTyping::Strong,
                                   "trtexec --onnx=m.onnx --stronglyTyped --layerPrecisions=a:fp16");
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Warning);
}

TEST(PrecisionFlagsRuleTest, Trt10WeakCommandForAStrongTargetIsWarned) {
    const auto f = commandFindings(TrtVersion::Trt10, TrtTyping::Strong, "trtexec --onnx=m.onnx --int8 --fp16");
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Warning);
    EXPECT_TRUE(contains(f[0].message, "without --stronglyTyped")) << f[0].message;
    EXPECT_TRUE(contains(f[0].message, "deprecated since TensorRT 10.12")) << f[0].message;
    EXPECT_TRUE(contains(f[0].fix, "--typing weak")) << f[0].fix;
}

TEST(PrecisionFlagsRuleTest, Trt10WeakTargetGetsTheDeprecationAsInfo) {
    const auto f = commandFindings(TrtVersion::Trt10, TrtTyping::Weak, "trtexec --onnx=m.onnx --int8 --fp16");
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Info);
    EXPECT_TRUE(contains(f[0].message, "deprecated since TensorRT 10.12")) << f[0].message;
}

TEST(PrecisionFlagsRuleTest, Trt10StronglyTypedCommandIsFine) {
    EXPECT_TRUE(commandFindings(TrtVersion::Trt10, TrtTyping::Strong, "trtexec --onnx=m.onnx --stronglyTyped").empty());
}

// ---- TensorRT 8.6 ---------------------------------------------------------------------------------------------

TEST(PrecisionFlagsRuleTest, Trt86HasNoStronglyTypedNetworks) {
    // LintOptions' default typing is strong; 8.6 can only be weak, whatever the options say.
    const auto f = commandFindings(TrtVersion::Trt86, TrtTyping::Strong, "trtexec --onnx=m.onnx --stronglyTyped");
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Error);
    EXPECT_TRUE(contains(f[0].message, "8.6 has no strongly typed networks")) << f[0].message;
}

TEST(PrecisionFlagsRuleTest, Trt86TakesThePrecisionFlags) {
    EXPECT_TRUE(commandFindings(TrtVersion::Trt86, TrtTyping::Weak, kQuantizeScript).empty());
}

// ---- Reading the shell text -----------------------------------------------------------------------------------

TEST(PrecisionFlagsRuleTest, QuantizeScriptWithContinuationsAndQuotes) {
    const auto f = commandFindings(TrtVersion::Trt11, TrtTyping::Strong, kQuantizeScript);
    ASSERT_EQ(f.size(), 2u);
    EXPECT_TRUE(contains(f[0].message, "trtexec (line 3): --int8 --fp16: removed")) << f[0].message;
    EXPECT_TRUE(contains(f[1].message, "trtexec (line 3): --precisionConstraints --layerPrecisions --layerOutputTypes"))
        << f[1].message;
}

TEST(PrecisionFlagsRuleTest, SpaceSeparatedValuesAndQuotedFlags) {
    const auto f = commandFindings(TrtVersion::Trt10, TrtTyping::Strong,
                                   "trtexec --onnx m.onnx \"--stronglyTyped\" --precisionConstraints obey "
                                   "--layerOutputTypes \"a b:fp16\"");
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Error) << f[0].message;  // obey read from the next word
}

TEST(PrecisionFlagsRuleTest, EveryInvocationIsCheckedOnItsLine) {
    const std::string script =
        "set -e\n"
        "# trtexec --onnx=old.onnx --best   (a comment: not run)\n"
        "for m in a b; do echo \"trtexec --int8\"; done\r\n"
        "/usr/src/tensorrt/bin/trtexec --onnx=a.onnx --fp16 && \\\r\n"
        "  docker run --gpus all nvcr.io/nvidia/tensorrt:24.01-py3 trtexec --onnx=b.onnx --int8\n";
    const auto f = commandFindings(TrtVersion::Trt11, TrtTyping::Strong, script);
    ASSERT_EQ(f.size(), 2u);
    EXPECT_TRUE(contains(f[0].message, "(line 4): --fp16: removed")) << f[0].message;
    EXPECT_TRUE(contains(f[1].message, "(line 5): --int8: removed")) << f[1].message;
}

TEST(PrecisionFlagsRuleTest, SimilarFlagNamesAreNotPrecisionFlags) {
    EXPECT_TRUE(commandFindings(TrtVersion::Trt11, TrtTyping::Strong,
                                "trtexec --onnx=m.onnx --noTF32 --fp16x --inputIOFormats=fp16:chw --calibProfile=0")
                    .empty());
}

TEST(PrecisionFlagsRuleTest, CommandWithoutTrtexecIsReported) {
    const auto f =
        commandFindings(TrtVersion::Trt11, TrtTyping::Strong, "polygraphy convert m.onnx --fp16 -o m.engine\n");
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Info);
    EXPECT_TRUE(contains(f[0].message, "no trtexec")) << f[0].message;
}

TEST(PrecisionFlagsRuleTest, NoCommandIsNotChecked) {
    EXPECT_TRUE(commandFindings(TrtVersion::Trt11, TrtTyping::Strong, "").empty());
    EXPECT_TRUE(commandFindings(TrtVersion::Trt11, TrtTyping::Strong, " \n\t").empty());
}

// ---- The model --------------------------------------------------------------------------------------------------

TEST(PrecisionFlagsRuleTest, QdqModelWithoutFp16RunsItsFloatLayersInFp32) {
    const auto model = qdqModel(false);
    for (TrtVersion version : {TrtVersion::Trt11, TrtVersion::Trt10}) {
        const auto f = lintWith(*model, version, TrtTyping::Strong, "");
        ASSERT_EQ(f.size(), 1u) << trtVersionName(version);
        EXPECT_EQ(f[0].severity, Severity::Warning);
        EXPECT_EQ(f[0].nodeName, "pool");
        EXPECT_TRUE(contains(f[0].message, "its 3 float layer(s) outside INT8")) << f[0].message;
        EXPECT_TRUE(contains(f[0].message, "run in FP32")) << f[0].message;
        EXPECT_TRUE(contains(f[0].fix, "quantlens-cli quantize --trt 11")) << f[0].fix;
        EXPECT_EQ(contains(f[0].fix, "--typing weak"), version == TrtVersion::Trt10) << f[0].fix;
        EXPECT_FALSE(f[0].causesFallback);
    }
}

TEST(PrecisionFlagsRuleTest, QdqModelWithFp16TensorsCarriesItsOwnPrecision) {
    EXPECT_TRUE(lintWith(*qdqModel(true), TrtVersion::Trt11, TrtTyping::Strong, "").empty());
}

// Conv -> Relu is one INT8 kernel: the Relu is no float layer of its own.
TEST(PrecisionFlagsRuleTest, PointwiseEpilogueOfAnInt8LayerIsNoFloatLayer) {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {1, 16, 8, 8});
    b.initializer("w", {16, 16, 1, 1}, test::seededFloats(256));
    b.node("Conv", {test::addQdq(b, "x"), test::addQdq(b, "w")}, {"c"}, "conv");
    b.node("Relu", {"c"}, {"y"}, "relu");
    b.output("y");
    EXPECT_TRUE(lintWith(*b.load(), TrtVersion::Trt11, TrtTyping::Strong, "").empty());
}

TEST(PrecisionFlagsRuleTest, WeaklyTypedTargetsTakeTheModelAsItIs) {
    const auto model = qdqModel(false);
    EXPECT_TRUE(lintWith(*model, TrtVersion::Trt10, TrtTyping::Weak, "").empty());
    EXPECT_TRUE(lintWith(*model, TrtVersion::Trt86, TrtTyping::Weak, "").empty());
}

TEST(PrecisionFlagsRuleTest, FloatModelIsNotAQdqModel) {
    EXPECT_TRUE(lintWith(*floatModel(), TrtVersion::Trt11, TrtTyping::Strong, "").empty());
}

}  // namespace
}  // namespace ql
