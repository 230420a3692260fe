// trt-residual-add-unquantized-input: the skip input of a residual Add after an INT8 conv must be quantized.
#include <gtest/gtest.h>

#include "core/lint/linter.h"
#include "core/quant/default_placement.h"

#include "tests/core/lint/lint_test_util.h"

namespace ql {
namespace {

using test::ModelBuilder;

constexpr const char* kRule = "trt-residual-add-unquantized-input";

void bn(ModelBuilder& b, const std::string& in, const std::string& out, const std::string& name) {
    b.initializer(name + "_s", {8}, std::vector<float>(8, 1.0f));
    b.initializer(name + "_b", {8}, std::vector<float>(8, 0.0f));
    b.initializer(name + "_m", {8}, std::vector<float>(8, 0.0f));
    b.initializer(name + "_v", {8}, std::vector<float>(8, 1.0f));
    b.node("BatchNormalization", {in, name + "_s", name + "_b", name + "_m", name + "_v"}, {out}, name);
}

// A conv on an already dequantized input, with a per-channel quantized weight.
void qconv(ModelBuilder& b, const std::string& x, const std::string& out, const std::string& name) {
    b.initializer(name + "_w", {8, 8, 1, 1}, test::seededFloats(64));
    const std::string w = test::addQdq(b, name + "_w", test::perChannel(8, 0.01f, 0));
    b.node("Conv", {x, w}, {out}, name);
}

// A ResNet downsample block as pytorch-quantization exports it when the downsample is a quantized
// Sequential(Conv, BN): main branch conv -> BN, downsample conv -> Q/DQ -> BN, and the Add.
// `quantizedSkip`: NVIDIA's recipe, Q/DQ on the skip input of the Add.
std::unique_ptr<Model> downsampleBlock(bool quantizedSkip, bool qdqBetweenConvAndBn) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 8, 4, 4});
    const std::string x = test::addQdq(b, "x");
    qconv(b, x, "main_conv", "conv2");
    bn(b, "main_conv", "main", "bn2");
    qconv(b, x, "ds_conv", "downsample.0");
    const std::string dsIn = qdqBetweenConvAndBn ? test::addQdq(b, "ds_conv") : "ds_conv";
    bn(b, dsIn, "ds", "downsample.1");
    const std::string skip = quantizedSkip ? test::addQdq(b, "ds") : "ds";
    b.node("Add", {"main", skip}, {"sum"}, "add");
    b.node("Relu", {"sum"}, {"y"}, "relu");
    b.output(test::addQdq(b, "y"));  // the next block's quantize
    return b.load();
}

TEST(ResidualAddRuleTest, UnquantizedSkipInputOfADownsampleBlockIsWarned) {
    const auto f = test::findingsOf(*downsampleBlock(false, true), kRule);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Warning);
    EXPECT_EQ(f[0].nodeName, "add");
    EXPECT_NE(f[0].message.find("skip input 'ds'"), std::string::npos) << f[0].message;
    EXPECT_NE(f[0].message.find("conv2"), std::string::npos) << f[0].message;
}

TEST(ResidualAddRuleTest, QuantizedSkipInputIsTheRecommendedPlacement) {
    EXPECT_TRUE(test::findingsOf(*downsampleBlock(true, false), kRule).empty());
}

TEST(ResidualAddRuleTest, QdqOnTheConvEdgeIsReported) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 8, 4, 4});
    const std::string x = test::addQdq(b, "x");
    qconv(b, x, "main_conv", "conv2");
    bn(b, "main_conv", "main", "bn2");
    const std::string mainDq = test::addQdq(b, "main");
    b.node("Add", {mainDq, x}, {"y"}, "add");
    b.output("y");
    const auto f = test::findingsOf(*b.load(), kRule);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Info);
}

// Nothing after the Add is quantized (the network's output, or float layers): its float output costs no conversion.
TEST(ResidualAddRuleTest, AnUnquantizedSkipWithNothingQuantizedAfterIsQuiet) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 8, 4, 4});
    const std::string x = test::addQdq(b, "x");
    qconv(b, x, "main_conv", "conv2");
    b.node("Add", {"main_conv", "x"}, {"sum"}, "add");
    b.node("Relu", {"sum"}, {"y"}, "relu");
    b.output("y");
    EXPECT_TRUE(test::findingsOf(*b.load(), kRule).empty());
}

// On a plan: a residual Add planned float between INT8 convolutions is what the export writes as an unquantized skip
// input, and lint says so before the export (the file's lint said it, the plan's did not).
TEST(ResidualAddRuleTest, APlanRunningTheAddFloatBetweenInt8ConvsIsWarned) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 8, 4, 4});
    b.initializer("w1", {8, 8, 1, 1}, test::seededFloats(64, 1));
    b.initializer("w2", {8, 8, 1, 1}, test::seededFloats(64, 2));
    b.node("Conv", {"x", "w1"}, {"c"}, "conv1");
    b.node("Add", {"c", "x"}, {"sum"}, "add");
    b.node("Relu", {"sum"}, {"r"}, "relu");
    b.node("Conv", {"r", "w2"}, {"y"}, "conv2");
    b.output("y");
    const auto model = b.load();
    const Graph& graph = model->graph();
    PrecisionPlan plan = defaultPrecisionPlan(graph);
    EXPECT_TRUE(test::findingsOf(*model, kRule).empty());  // the default plan runs the Add INT8
    plan.setRequested(*graph.findNode("add"), Precision::Fp16);
    const auto f = test::findingsOf(lint(graph, plan, {TrtVersion::Trt10}), kRule);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Warning);
    EXPECT_EQ(f[0].nodeName, "add");
    EXPECT_NE(f[0].message.find("runs FP16 between INT8 conv 'conv1' and INT8 layer 'relu'"), std::string::npos)
        << f[0].message;
    EXPECT_NE(f[0].fix.find("plan this Add INT8"), std::string::npos) << f[0].fix;
}

TEST(ResidualAddRuleTest, PlainFloatModelsAreLeftToTheExporter) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 8, 4, 4});
    b.initializer("w", {8, 8, 1, 1}, test::seededFloats(64));
    b.node("Conv", {"x", "w"}, {"c"}, "conv");
    b.node("Add", {"c", "x"}, {"y"}, "add");
    b.output("y");
    EXPECT_TRUE(test::findingsOf(*b.load(), kRule).empty());
}

}  // namespace
}  // namespace ql
