// trt-int8-channel-alignment: INT8 channel counts in multiples of 16, one finding per model weighed by its share of
// the INT8 MACs.
#include <gtest/gtest.h>

#include "tests/core/lint/lint_test_util.h"

namespace ql {
namespace {

constexpr const char* kRule = "trt-int8-channel-alignment";

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

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

// Relu, then 1x1 convs through `channels` (channels[0] in, each next count out) on a 16x16 map.
std::unique_ptr<Model> convChain(const std::vector<int64_t>& channels) {
    const auto tensor = [](size_t i) {
        std::string name = "t";
        name += std::to_string(i);  // appended: "t" + std::to_string(i) trips GCC 12's -Wrestrict
        return name;
    };
    test::ModelBuilder b;
    b.input("x", DataType::Float, {1, channels[0], 16, 16});
    b.node("Relu", {"x"}, {tensor(0)}, "relu");
    for (size_t i = 1; i < channels.size(); ++i) {
        const std::string n = std::to_string(i);
        b.initializer("w" + n, {channels[i], channels[i - 1], 1, 1},
                      test::seededFloats(static_cast<size_t>(channels[i] * channels[i - 1]), static_cast<uint32_t>(i)));
        b.node("Conv", {tensor(i - 1), "w" + n}, {tensor(i)}, "conv" + n);
    }
    b.output(tensor(channels.size() - 1));
    return b.load();
}

TEST(Int8ChannelAlignmentRuleTest, SmallLayersCarryingMostOfTheWorkAreOneWarning) {
    const auto f = test::findingsOf(*convChain({8, 8, 8, 8, 8}), kRule);
    ASSERT_EQ(f.size(), 1u);  // four misaligned convs, one finding
    EXPECT_EQ(f[0].severity, Severity::Warning);
    EXPECT_FALSE(f[0].causesFallback);
    EXPECT_TRUE(contains(f[0].message, "4 INT8 layers")) << f[0].message;
    EXPECT_TRUE(contains(f[0].message, "100.0% of the INT8 MACs")) << f[0].message;
    EXPECT_TRUE(contains(f[0].message, "conv2 (C=8, K=8: 25.0%)")) << f[0].message;
    EXPECT_TRUE(contains(f[0].fix, "keep the 4 layers with fewer than 16 channels FP16")) << f[0].fix;
    EXPECT_TRUE(contains(f[0].fix, "8 -> 16")) << f[0].fix;
}

TEST(Int8ChannelAlignmentRuleTest, MultiplesOfSixteenAreFine) {
    EXPECT_TRUE(test::findingsOf(*conv(16, 32), kRule).empty());
    EXPECT_TRUE(test::findingsOf(*convChain({16, 32, 48, 16}), kRule).empty());
}

// Two small convs (a big 3x3 one among them) and two padded by 24 channels: one finding, on the largest small layer,
// with both groups by their largest.
TEST(Int8ChannelAlignmentRuleTest, OneFindingSitsOnTheLargestSmallLayer) {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {1, 16, 16, 16});
    b.node("Relu", {"x"}, {"r"}, "relu");
    b.initializer("wa", {8, 16, 3, 3}, test::seededFloats(8 * 16 * 9, 1));
    b.node("Conv", {"r", "wa"}, {"a"}, "big_small").ints("pads", {1, 1, 1, 1});
    b.initializer("wb", {16, 8, 1, 1}, test::seededFloats(16 * 8, 2));
    b.node("Conv", {"a", "wb"}, {"bb"}, "little_small");
    b.initializer("wc", {24, 16, 1, 1}, test::seededFloats(24 * 16, 3));
    b.node("Conv", {"bb", "wc"}, {"c"}, "padded");
    b.initializer("wd", {32, 24, 1, 1}, test::seededFloats(32 * 24, 4));
    b.node("Conv", {"c", "wd"}, {"y"}, "last");
    b.output("y");
    const auto f = test::findingsOf(*b.load(), kRule);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].nodeName, "big_small");
    EXPECT_TRUE(contains(f[0].message, "4 INT8 layers")) << f[0].message;
    EXPECT_TRUE(contains(f[0].message, "2 of them")) << f[0].message;
    EXPECT_TRUE(contains(f[0].message, "big_small (K=8")) << f[0].message;
    EXPECT_TRUE(contains(f[0].message, "INT8 stays faster: last (C=24")) << f[0].message;
    EXPECT_TRUE(contains(f[0].fix, "24 -> 32")) << f[0].fix;
}

// 24 and 40 channels: padded to 32 and 48, by less than INT8's speed-up over FP16; advice for a model you train.
TEST(Int8ChannelAlignmentRuleTest, LayersOfSixteenOrMoreStayInt8AsInfo) {
    const auto f = test::findingsOf(*convChain({16, 24, 40, 32}), kRule);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Info);
    EXPECT_TRUE(contains(f[0].message, "INT8 stays faster")) << f[0].message;
    EXPECT_TRUE(contains(f[0].fix, "keep them INT8")) << f[0].fix;
    EXPECT_TRUE(contains(f[0].fix, "24 -> 32 and 40 -> 48")) << f[0].fix;
}

// Conv 3 -> 32 -> 64 on 32x32, pooled, then a 10-class Gemm over a batch of `batch` images.
std::unique_ptr<Model> classifier(int64_t batch) {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {batch, 3, 32, 32});
    b.initializer("w1", {32, 3, 3, 3}, test::seededFloats(32 * 3 * 9, 1));
    b.node("Conv", {"x", "w1"}, {"c1"}, "conv1").ints("pads", {1, 1, 1, 1});
    b.node("Relu", {"c1"}, {"r1"}, "relu1");
    b.initializer("w2", {64, 32, 3, 3}, test::seededFloats(64 * 32 * 9, 2));
    b.node("Conv", {"r1", "w2"}, {"c2"}, "conv2").ints("pads", {1, 1, 1, 1});
    b.node("Relu", {"c2"}, {"r2"}, "relu2");
    b.node("GlobalAveragePool", {"r2"}, {"p"}, "pool");
    b.node("Flatten", {"p"}, {"f"}, "flatten");
    b.initializer("wfc", {10, 64}, test::seededFloats(10 * 64, 3));
    b.node("Gemm", {"f", "wfc"}, {"y"}, "fc").i("transB", 1);
    b.output("y");
    return b.load();
}

// The head carries a tiny share of the work: info, with its percentage; its 10 outputs are the task's.
TEST(Int8ChannelAlignmentRuleTest, ATenClassHeadIsInfo) {
    const auto f = test::findingsOf(*classifier(4), kRule);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Info);
    EXPECT_EQ(f[0].nodeName, "fc");
    EXPECT_TRUE(contains(f[0].message, "carries <0.01% of the INT8 MACs")) << f[0].message;
    EXPECT_TRUE(contains(f[0].message, "fc (K=10")) << f[0].message;
    EXPECT_TRUE(contains(f[0].fix, "keep fc FP16")) << f[0].fix;
    EXPECT_TRUE(contains(f[0].fix, "10 is a model output's channel count")) << f[0].fix;
}

// At batch 1 the head is a matrix-vector product: trt-int8-gemv's finding, not repeated here.
TEST(Int8ChannelAlignmentRuleTest, AHeadAtBatchOneIsLeftToGemv) {
    const auto model = classifier(1);
    EXPECT_TRUE(test::findingsOf(*model, kRule).empty());
    // The default plan keeps the matrix-vector head in float (as Model Optimizer does), so gemv has nothing to say.
    EXPECT_TRUE(test::findingsOf(*model, "trt-int8-gemv").empty());
}

// NVIDIA's placement quantizes the first conv of an image model whatever its 1 or 3 input channels.
TEST(Int8ChannelAlignmentRuleTest, TheFirstLayersImageChannelsAreExempt) {
    EXPECT_TRUE(test::findingsOf(*conv(3, 16, true), kRule).empty());
    const auto f = test::findingsOf(*conv(3, 24, true), kRule);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_TRUE(contains(f[0].message, "conv (K=24")) << f[0].message;
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
    EXPECT_TRUE(contains(six[0].message, "conv (C=6")) << six[0].message;
    const auto afterConv = test::findingsOf(*normalizedFirstConv(4, true), kRule);
    ASSERT_EQ(afterConv.size(), 1u);
    EXPECT_TRUE(contains(afterConv[0].message, "conv (C=4")) << afterConv[0].message;
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
