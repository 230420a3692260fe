// trt-int8-small-layer: layers below Model Optimizer's INT8 size thresholds.
#include <gtest/gtest.h>

#include "tests/core/lint/lint_test_util.h"

namespace ql {
namespace {

constexpr const char* kRule = "trt-int8-small-layer";

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
    EXPECT_NE(f[0].message.find("group 2"), std::string::npos) << f[0].message;
    EXPECT_NE(f[0].fix.find("FP16"), std::string::npos) << f[0].fix;
}

TEST(Int8SmallLayerRuleTest, DepthwiseConvWithBigKernelIsKept) {
    EXPECT_TRUE(test::findingsOf(*conv(32, 32, 32, 3), kRule).empty());
}

TEST(Int8SmallLayerRuleTest, LargeConvIsQuiet) {
    EXPECT_TRUE(test::findingsOf(*conv(32, 64, 1, 3), kRule).empty());
}

// A group-1 Conv with 8 channels is trt-int8-channel-alignment's finding; no second one here.
TEST(Int8SmallLayerRuleTest, UngroupedSmallConvIsLeftToChannelAlignment) {
    const auto model = conv(8, 8, 1, 1);
    EXPECT_TRUE(test::findingsOf(*model, kRule).empty());
    EXPECT_EQ(test::findingsOf(*model, "trt-int8-channel-alignment").size(), 1u);
}

}  // namespace
}  // namespace ql
