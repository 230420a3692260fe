// trt-int8-channel-alignment: INT8 channel counts in multiples of 16.
#include <gtest/gtest.h>

#include "tests/core/lint/lint_test_util.h"

namespace ql {
namespace {

constexpr const char* kRule = "trt-int8-channel-alignment";

std::unique_ptr<Model> conv(int64_t c, int64_t k) {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {1, c, 4, 4});
    b.initializer("w", {k, c, 1, 1}, test::seededFloats(static_cast<size_t>(c * k)));
    b.node("Conv", {"x", "w"}, {"y"}, "conv");
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

}  // namespace
}  // namespace ql
