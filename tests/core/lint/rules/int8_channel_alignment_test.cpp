// trt-int8-channel-alignment: INT8 channel counts in multiples of 16.
#include <gtest/gtest.h>

#include "tests/core/lint/lint_test_util.h"

namespace ql {
namespace {

constexpr const char* kRule = "trt-int8-channel-alignment";

// A conv inside the network (after a Relu), or the first layer reading the model's input.
std::unique_ptr<Model> conv(int64_t c, int64_t k, bool firstLayer = false) {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {1, c, 4, 4});
    b.initializer("w", {k, c, 1, 1}, test::seededFloats(static_cast<size_t>(c * k)));
    if (!firstLayer) b.node("Relu", {"x"}, {"r"}, "relu");
    b.node("Conv", {firstLayer ? "x" : "r", "w"}, {"y"}, "conv");
    b.output("y");
    return b.load();
}

TEST(Int8ChannelAlignmentRuleTest, UnalignedChannelsAreAPerformanceWarning) {
    const auto f = test::findingsOf(*conv(8, 24), kRule);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Warning);
    EXPECT_FALSE(f[0].causesFallback);
    EXPECT_NE(f[0].message.find("C=8 and K=24"), std::string::npos) << f[0].message;
}

TEST(Int8ChannelAlignmentRuleTest, MultiplesOfSixteenAreFine) {
    EXPECT_TRUE(test::findingsOf(*conv(16, 32), kRule).empty());
}

// NVIDIA's placement quantizes the first conv of an image model whatever its 1 or 3 input channels.
TEST(Int8ChannelAlignmentRuleTest, TheFirstLayersImageChannelsAreExempt) {
    EXPECT_TRUE(test::findingsOf(*conv(3, 16, true), kRule).empty());
    const auto f = test::findingsOf(*conv(3, 24, true), kRule);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_NE(f[0].message.find(": K=24 not"), std::string::npos) << f[0].message;
}

// An RGBA (or RGB + depth) image, normalized before the first conv: TensorRT pads its 4 channels (INT8 CHW4), so only
// K is checked; a 6-channel input gets no such pass, nor does a 4-channel tensor after a weighted layer.
std::unique_ptr<Model> normalizedFirstConv(int64_t c, bool afterAConv) {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {1, c, 4, 4});
    b.initializer("mean", {1, c, 1, 1}, std::vector<float>(static_cast<size_t>(c), 0.5f));
    b.initializer("w0", {c, c, 1, 1}, test::seededFloats(static_cast<size_t>(c * c), 3));
    b.initializer("w", {32, c, 3, 3}, test::seededFloats(static_cast<size_t>(32 * c * 9)));
    b.node("Sub", {"x", "mean"}, {"n"}, "normalize");
    if (afterAConv) b.node("Conv", {"n", "w0"}, {"n0"}, "conv0");
    b.node("Conv", {afterAConv ? "n0" : "n", "w"}, {"y"}, "conv").ints("pads", {1, 1, 1, 1});
    b.output("y");
    return b.load();
}

TEST(Int8ChannelAlignmentRuleTest, AFirstLayerOfUpToFourChannelsIsExemptThroughPreprocessing) {
    EXPECT_TRUE(test::findingsOf(*normalizedFirstConv(4, false), kRule).empty());
    EXPECT_TRUE(test::findingsOf(*normalizedFirstConv(3, false), kRule).empty());
    const auto six = test::findingsOf(*normalizedFirstConv(6, false), kRule);
    ASSERT_EQ(six.size(), 1u);
    EXPECT_NE(six[0].message.find(": C=6 not"), std::string::npos) << six[0].message;
    bool sawSecond = false;
    for (const Finding& f : test::findingsOf(*normalizedFirstConv(4, true), kRule))
        if (f.nodeName == "conv") sawSecond = f.message.find(": C=4 not") != std::string::npos;
    EXPECT_TRUE(sawSecond);
}

// Q x K^T over 197 tokens: the 197 is a sequence length, not an output channel count.
TEST(Int8ChannelAlignmentRuleTest, AttentionsBatchedMatMulsHaveNoChannels) {
    test::ModelBuilder b(17);
    b.input("q", DataType::Float, {1, 3, 197, 64});
    b.input("kT", DataType::Float, {1, 3, 64, 197});
    b.node("MatMul", {"q", "kT"}, {"scores"}, "qk");
    b.output("scores");
    EXPECT_TRUE(test::findingsOf(*b.load(), kRule).empty());
}

}  // namespace
}  // namespace ql
