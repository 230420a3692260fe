// trt-qdq-axis-mismatch: per-channel weight scales along the output channels, with the axis written.
#include <gtest/gtest.h>

#include "tests/core/lint/lint_test_util.h"

namespace ql {
namespace {

using test::ModelBuilder;

constexpr const char* kRule = "trt-qdq-axis-mismatch";

// Conv weight [8, 4, 3, 3] quantized per channel with the given spec.
std::unique_ptr<Model> conv(const test::QdqSpec& weightSpec) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 4, 8, 8});
    b.initializer("w", {8, 4, 3, 3}, test::seededFloats(288));
    const std::string x = test::addQdq(b, "x");
    const std::string w = test::addQdq(b, "w", weightSpec);
    b.node("Conv", {x, w}, {"y"}, "conv");
    b.output("y");
    return b.load();
}

TEST(QdqAxisMismatchRuleTest, OutputChannelAxisWithOneScalePerChannelIsFine) {
    EXPECT_TRUE(test::findingsOf(*conv(test::perChannel(8, 0.01f, 0)), kRule).empty());
}

TEST(QdqAxisMismatchRuleTest, ScaleCountNotMatchingTheAxisFailsTheBuild) {
    const auto f = test::findingsOf(*conv(test::perChannel(4, 0.01f, 0)), kRule);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Error);
    EXPECT_NE(f[0].message.find("4 weight scales on axis 0"), std::string::npos) << f[0].message;
}

TEST(QdqAxisMismatchRuleTest, InputChannelAxisIsTheWrongAxis) {
    const auto f = test::findingsOf(*conv(test::perChannel(4, 0.01f, 1)), kRule);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Warning);
    EXPECT_NE(f[0].message.find("output channels are on axis 0"), std::string::npos) << f[0].message;
}

TEST(QdqAxisMismatchRuleTest, OmittedAxisIsWarned) {
    const auto f = test::findingsOf(*conv(test::perChannel(8, 0.01f, std::nullopt)), kRule);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Warning);
    EXPECT_NE(f[0].message.find("no axis attribute"), std::string::npos) << f[0].message;
}

TEST(QdqAxisMismatchRuleTest, GemmAxisFollowsTransB) {
    auto gemm = [](int64_t transB, int64_t axis) {
        ModelBuilder b;
        b.input("x", DataType::Float, {2, 16});
        b.initializer("w", transB ? std::vector<int64_t>{32, 16} : std::vector<int64_t>{16, 32},
                      test::seededFloats(512));
        const std::string x = test::addQdq(b, "x");
        const std::string w = test::addQdq(b, "w", test::perChannel(32, 0.01f, axis));
        b.node("Gemm", {x, w}, {"y"}, "fc").i("transB", transB);
        b.output("y");
        return b.load();
    };
    EXPECT_TRUE(test::findingsOf(*gemm(1, 0), kRule).empty());
    EXPECT_TRUE(test::findingsOf(*gemm(0, 1), kRule).empty());
    EXPECT_EQ(test::findingsOf(*gemm(0, 0), kRule).size(), 1u);  // 32 scales on a 16-row axis
}

}  // namespace
}  // namespace ql
