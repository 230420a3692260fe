// trt-resize-qdq: Q/DQ belong after a Resize, not before it.
#include <gtest/gtest.h>

#include "tests/core/lint/lint_test_util.h"

namespace ql {
namespace {

constexpr const char* kRule = "trt-resize-qdq";

// x -> [Q/DQ] -> Resize -> [Q/DQ] -> Relu
std::unique_ptr<Model> upsample(bool before, bool after) {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {1, 4, 4, 4});
    b.initializer("scales", {4}, {1, 1, 2, 2});
    const std::string x = before ? test::addQdq(b, "x") : "x";
    b.node("Resize", {x, "", "scales"}, {"up"}, "resize").s("mode", "nearest");
    const std::string up = after ? test::addQdq(b, "up") : "up";
    b.node("Relu", {up}, {"y"}, "relu");
    b.output("y");
    return b.load();
}

TEST(ResizeQdqRuleTest, QdqOnlyBeforeResizeIsInformation) {
    const auto f = test::findingsOf(*upsample(true, false), kRule);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Info);
    EXPECT_EQ(f[0].nodeName, "resize");
}

TEST(ResizeQdqRuleTest, QdqAfterResizeIsFine) {
    EXPECT_TRUE(test::findingsOf(*upsample(false, true), kRule).empty());
    EXPECT_TRUE(test::findingsOf(*upsample(true, true), kRule).empty());
}

}  // namespace
}  // namespace ql
