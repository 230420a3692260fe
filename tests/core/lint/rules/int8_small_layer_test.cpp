// trt-int8-small-layer: grouped convolutions under 16 channels per group, one threshold for every layer alike.
#include <gtest/gtest.h>

#include "tests/core/lint/lint_test_util.h"

namespace ql {
namespace {

constexpr const char* kRule = "trt-int8-small-layer";

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// A quantized Conv on [1, inChannels, 8, 8] with weight [outChannels, inChannels / group, kernel, kernel].
std::unique_ptr<Model> conv(int64_t inChannels, int64_t outChannels, int64_t group, int64_t kernel) {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {1, inChannels, 8, 8});
    b.node("Relu", {"x"}, {"r"}, "stem");  // so the Conv is not the first layer
    const std::string x = test::addQdq(b, "r");
    const int64_t perGroup = inChannels / group;
    b.initializer("w", {outChannels, perGroup, kernel, kernel},
                  test::seededFloats(static_cast<size_t>(outChannels * perGroup * kernel * kernel)));
    const std::string w = test::addQdq(b, "w");
    b.node("Conv", {x, w}, {"y"}, "conv").i("group", group).ints("kernel_shape", {kernel, kernel});
    b.output("y");
    return b.load();
}

TEST(Int8SmallLayerRuleTest, SmallGroupedPointwiseConvIsReported) {
    const auto f = test::findingsOf(*conv(8, 8, 2, 1), kRule);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Info);
    EXPECT_EQ(f[0].nodeName, "conv");
    EXPECT_TRUE(contains(f[0].message, "fewer than 16 channels per group")) << f[0].message;
    EXPECT_TRUE(contains(f[0].message, "conv (C=4, K=4 per group, group 2, kernel 1x1)")) << f[0].message;
    EXPECT_TRUE(contains(f[0].message, "100.0% of the INT8 MACs")) << f[0].message;
    EXPECT_TRUE(contains(f[0].fix, "keep this layer FP16 (remove the Q/DQ on its inputs)")) << f[0].fix;
}

// Model Optimizer keeps a depthwise 3x3 INT8 only when its channels are a multiple of 8; this rule keeps 32 and 36
// alike (TensorRT's own alignment, multiples of 4, is trt-grouped-conv-int8-alignment's).
TEST(Int8SmallLayerRuleTest, DepthwiseConvsWithBigKernelsAreKeptAlike) {
    EXPECT_TRUE(test::findingsOf(*conv(32, 32, 32, 3), kRule).empty());
    EXPECT_TRUE(test::findingsOf(*conv(36, 36, 36, 3), kRule).empty());
    EXPECT_TRUE(test::findingsOf(*conv(28, 28, 28, 5), kRule).empty());
}

TEST(Int8SmallLayerRuleTest, LargeConvIsQuiet) {
    EXPECT_TRUE(test::findingsOf(*conv(32, 64, 1, 3), kRule).empty());
    EXPECT_TRUE(test::findingsOf(*conv(64, 64, 4, 1), kRule).empty());  // 16 channels per group
}

// Inverted residual blocks (expand 1x1, depthwise, project 1x1) of 24, 36 and 40 channels, the depthwise kernels
// `kernel` wide.
std::unique_ptr<Model> mobileNetBlocks(int64_t kernel) {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {1, 16, 8, 8});
    b.node("Relu", {"x"}, {"in"}, "stem");
    std::string previous = "in";
    uint32_t seed = 1;
    for (const int64_t c : {24, 36, 40}) {
        const std::string n = std::to_string(c);
        b.initializer("we" + n, {c, 16, 1, 1}, test::seededFloats(static_cast<size_t>(c * 16), seed++));
        b.node("Conv", {previous, "we" + n}, {"e" + n}, "expand" + n);
        b.initializer("wd" + n, {c, 1, kernel, kernel},
                      test::seededFloats(static_cast<size_t>(c * kernel * kernel), seed++));
        const int64_t pad = kernel / 2;
        b.node("Conv", {"e" + n, "wd" + n}, {"d" + n}, "dw" + n).i("group", c).ints("pads", {pad, pad, pad, pad});
        b.initializer("wp" + n, {16, c, 1, 1}, test::seededFloats(static_cast<size_t>(16 * c), seed++));
        b.node("Conv", {"d" + n, "wp" + n}, {"p" + n}, "project" + n);
        previous = "p" + n;
    }
    b.output(previous);
    return b.load();
}

// Every depthwise conv of the blocks is judged alike: all kept with 3x3 kernels, all in one finding with 1x1 ones.
TEST(Int8SmallLayerRuleTest, EveryDepthwiseConvOfAMobileNetIsTreatedAlike) {
    EXPECT_TRUE(test::findingsOf(*mobileNetBlocks(3), kRule).empty());
    const auto f = test::findingsOf(*mobileNetBlocks(1), kRule);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].nodeName, "dw40");  // the largest
    EXPECT_TRUE(contains(f[0].message, "3 INT8 grouped convolutions")) << f[0].message;
    for (const char* dw : {"dw24 (", "dw36 (", "dw40 ("}) EXPECT_TRUE(contains(f[0].message, dw)) << f[0].message;
    EXPECT_TRUE(contains(f[0].fix, "keep these layers FP16 (plan them FP16)")) << f[0].fix;
}

// A group-1 Conv with 8 channels is trt-int8-channel-alignment's finding, by the same threshold; no second one here.
TEST(Int8SmallLayerRuleTest, UngroupedSmallConvIsLeftToChannelAlignment) {
    const auto model = conv(8, 8, 1, 1);
    EXPECT_TRUE(test::findingsOf(*model, kRule).empty());
    const auto alignment = test::findingsOf(*model, "trt-int8-channel-alignment");
    ASSERT_EQ(alignment.size(), 1u);
    EXPECT_TRUE(contains(alignment[0].message, "fewer than 16 channels")) << alignment[0].message;
}

}  // namespace
}  // namespace ql
