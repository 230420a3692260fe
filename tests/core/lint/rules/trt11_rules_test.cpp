// The TensorRT 11 predictions: trt-strong-fp16-grouped-conv (NVIDIA/TensorRT#4838), trt-float-model-fp32 (a float32
// model builds FP32 without --fp16) and trt-qdq-type (quantized types the parser rejects). trt-opset-range's 11.x
// range (opset 25 from 11.5) is tested in opset_range_test.cpp.
#include <gtest/gtest.h>

#include "core/quant/default_placement.h"
#include "tests/core/exec/kernels/control_flow_test_util.h"
#include "tests/core/lint/lint_test_util.h"

namespace ql {
namespace {

std::vector<Finding> findingsOf(const LintReport& report, std::string_view rule) {
    std::vector<Finding> out;
    for (const Finding& f : report.findings)
        if (f.ruleId == rule) out.push_back(f);
    return out;
}

// x -> [Cast to float16] -> Conv (group `group`, 16 channels) -> [Cast back]: the reproduction of #4838 when float16.
std::unique_ptr<Model> groupedConv(bool float16, int64_t group) {
    test::ModelBuilder b(17);
    b.input("x", DataType::Float, {1, 16, 8, 8});
    std::string in = "x";
    if (float16) {
        b.node("Cast", {"x"}, {"x16"}, "to_fp16").i("to", static_cast<int64_t>(DataType::Float16));
        b.initializer("w", DataType::Float16, {16, 16 / group, 3, 3},
                      std::vector<double>(static_cast<size_t>(16 * (16 / group) * 9), 0.1));
        in = "x16";
    } else {
        b.initializer("w", {16, 16 / group, 3, 3}, test::seededFloats(static_cast<size_t>(16 * (16 / group) * 9)));
    }
    b.node("Conv", {in, "w"}, {"y"}, "conv").i("group", group).ints("pads", {1, 1, 1, 1});
    if (float16) {
        b.node("Cast", {"y"}, {"y32"}, "to_fp32").i("to", static_cast<int64_t>(DataType::Float));
        b.output("y32");
    } else {
        b.output("y");
    }
    return b.load();
}

constexpr const char* kGrouped = "trt-strong-fp16-grouped-conv";

TEST(StrongFp16GroupedConvRuleTest, AFloat16DepthwiseConvFailsOnTrt11) {
    const auto model = groupedConv(true, 16);
    const auto f = test::findingsOf(*model, kGrouped, TrtVersion::Trt11);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Error);
    EXPECT_EQ(f[0].nodeName, "conv");
    EXPECT_NE(f[0].message.find("group 16 computes in FP16 (its input is float16)"), std::string::npos) << f[0].message;
    EXPECT_TRUE(test::findingsOf(*model, kGrouped, TrtVersion::Trt10).empty());
}

TEST(StrongFp16GroupedConvRuleTest, AnUngroupedOrFloat32ConvIsQuiet) {
    EXPECT_TRUE(test::findingsOf(*groupedConv(true, 1), kGrouped, TrtVersion::Trt11).empty());
    const auto model = groupedConv(false, 16);
    PrecisionPlan plan = defaultPrecisionPlan(model->graph());
    const NodeId conv = model->graph().nodes().front().id;
    plan.setRequested(conv, Precision::Fp32);
    plan.setEffective(conv, Precision::Fp32, "");
    EXPECT_TRUE(findingsOf(lint(model->graph(), plan, {TrtVersion::Trt11}), kGrouped).empty());
}

TEST(StrongFp16GroupedConvRuleTest, APlanThatRunsAGroupedConvFp16Fails) {
    const auto model = groupedConv(false, 4);
    PrecisionPlan plan = defaultPrecisionPlan(model->graph());
    const NodeId conv = model->graph().nodes().front().id;
    plan.setRequested(conv, Precision::Fp16);
    plan.setEffective(conv, Precision::Fp16, "");
    const auto f = findingsOf(lint(model->graph(), plan, {TrtVersion::Trt11}), kGrouped);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_NE(f[0].message.find("the plan runs it FP16"), std::string::npos) << f[0].message;
}

TEST(StrongFp16GroupedConvRuleTest, AnInt8GroupedConvWithFloat32QdqIsQuiet) {
    test::ModelBuilder b(17);
    b.input("x", DataType::Float, {1, 16, 8, 8});
    b.initializer("w", {16, 1, 3, 3}, test::seededFloats(144));
    const std::string x = test::addQdq(b, "x");
    const std::string w = test::addQdq(b, "w");
    b.node("Conv", {x, w}, {"y"}, "conv").i("group", 16);
    b.output("y");
    EXPECT_TRUE(test::findingsOf(*b.load(), kGrouped, TrtVersion::Trt11).empty());
}

constexpr const char* kFloatModel = "trt-float-model-fp32";

TEST(FloatModelFp32RuleTest, AFloat32ModelBuildsFp32OnTrt11) {
    const auto model = groupedConv(false, 1);
    const auto info = test::findingsOf(*model, kFloatModel, TrtVersion::Trt11);
    ASSERT_EQ(info.size(), 1u);
    EXPECT_EQ(info[0].severity, Severity::Info);
    EXPECT_NE(info[0].message.find("builds all 1 of its weighted layers"), std::string::npos) << info[0].message;
    LintOptions options{TrtVersion::Trt11};
    options.trtexecCommand = "trtexec --onnx=model.onnx --saveEngine=model.engine";
    const auto warning = findingsOf(lint(model->graph(), defaultPrecisionPlan(model->graph()), options), kFloatModel);
    ASSERT_EQ(warning.size(), 1u);
    EXPECT_EQ(warning[0].severity, Severity::Warning);
    EXPECT_TRUE(test::findingsOf(*model, kFloatModel, TrtVersion::Trt10).empty());
}

TEST(FloatModelFp32RuleTest, Float16AndQdqModelsAreQuiet) {
    EXPECT_TRUE(test::findingsOf(*groupedConv(true, 1), kFloatModel, TrtVersion::Trt11).empty());
    test::ModelBuilder b(17);
    b.input("x", DataType::Float, {1, 16});
    b.initializer("w", {16, 16}, test::seededFloats(256));
    b.node("MatMul", {test::addQdq(b, "x"), test::addQdq(b, "w")}, {"y"}, "mm");
    b.output("y");
    EXPECT_TRUE(test::findingsOf(*b.load(), kFloatModel, TrtVersion::Trt11).empty());
}

// Silero VAD: every layer sits inside the two branches of an If. One finding for the model, on the If.
TEST(FloatModelFp32RuleTest, AModelWhoseLayersAreInsideIfBodiesGetsOneFinding) {
    test::ModelBuilder b(17);
    b.input("c", DataType::Bool, {});
    b.input("x", DataType::Float, {1, 16});
    const auto branch = [](const std::string& name) {
        return test::subgraph(
            name,
            [&](test::ModelBuilder& g) {
                g.initializer("w_" + name, {16, 16}, test::seededFloats(256));
                g.node("MatMul", {"x", "w_" + name}, {"y_" + name}, "mm_" + name);
                g.output("y_" + name, DataType::Float, {1, 16}, true);
            },
            17);
    };
    b.node("If", {"c"}, {"y"}, "choose").graph("then_branch", branch("then")).graph("else_branch", branch("else"));
    b.output("y");
    const auto f = test::findingsOf(*b.load(), kFloatModel, TrtVersion::Trt11);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].nodeName, "choose");
    EXPECT_NE(f[0].message.find("the layers inside 'choose'"), std::string::npos) << f[0].message;
}

constexpr const char* kQdqType = "trt-qdq-type";

// x -> Q -> DQ with the zero point stored as `onnxType` (one value: 0), at opset 21.
std::unique_ptr<Model> qdqOfType(int32_t onnxType) {
    test::ModelBuilder b(21);
    b.input("x", DataType::Float, {4});
    b.initializer("s", {}, {0.1f});
    onnx::TensorProto* zp = b.graph().add_initializer();
    zp->set_name("zp");
    zp->set_data_type(onnxType);
    zp->set_raw_data(std::string(1, '\0'));
    b.node("QuantizeLinear", {"x", "s", "zp"}, {"q"}, "quantize");
    b.node("DequantizeLinear", {"q", "s", "zp"}, {"y"}, "dequantize");
    b.output("y");
    return b.load();
}

TEST(QdqTypeRuleTest, TypesTensorRtDoesNotTakeAreErrors) {
    const auto e5m2 = test::findingsOf(*qdqOfType(19), kQdqType, TrtVersion::Trt11);
    ASSERT_EQ(e5m2.size(), 2u);
    EXPECT_EQ(e5m2[0].severity, Severity::Error);
    EXPECT_NE(e5m2[0].message.find("quantizes to FLOAT8E5M2"), std::string::npos) << e5m2[0].message;
    EXPECT_EQ(test::findingsOf(*qdqOfType(26), kQdqType, TrtVersion::Trt11).size(), 2u);  // INT2
    EXPECT_EQ(test::findingsOf(*qdqOfType(24), kQdqType, TrtVersion::Trt10).size(), 2u);  // FLOAT8E8M0
}

TEST(QdqTypeRuleTest, Int8AndFp8E4M3AreTaken) {
    EXPECT_TRUE(test::findingsOf(*qdqOfType(3), kQdqType, TrtVersion::Trt11).empty());
    EXPECT_TRUE(test::findingsOf(*qdqOfType(17), kQdqType, TrtVersion::Trt10).empty());
    EXPECT_EQ(test::findingsOf(*qdqOfType(17), kQdqType, TrtVersion::Trt86).size(), 2u);  // FP8 is not 8.6's
}

TEST(QdqTypeRuleTest, AnOutputDtypeAttributeNamesTheType) {
    test::ModelBuilder b(25);
    b.input("x", DataType::Float, {4});
    b.initializer("s", {}, {0.1f});
    b.node("QuantizeLinear", {"x", "s"}, {"q"}, "quantize").i("output_dtype", 26);
    b.node("Identity", {"q"}, {"y"}, "id");
    b.output("y");
    auto loaded = b.tryLoad();
    if (!loaded) GTEST_SKIP() << "the ONNX library here does not know opset 25: " << loaded.status().message();
    const auto f = test::findingsOf(**loaded, kQdqType, TrtVersion::Trt11);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_NE(f[0].message.find("quantizes to INT2"), std::string::npos) << f[0].message;
}

}  // namespace
}  // namespace ql
