// trt-qdq-activation-per-channel: activations take one scale.
#include <gtest/gtest.h>

#include "tests/core/lint/lint_test_util.h"

namespace ql {
namespace {

constexpr const char* kRule = "trt-qdq-activation-per-channel";

std::unique_ptr<Model> model(size_t scales) {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {1, 3, 4, 4});
    const std::string x = test::addQdq(b, "x", test::perChannel(scales, 0.02f, 1));
    b.node("Relu", {x}, {"y"}, "relu");
    b.output("y");
    return b.load();
}

TEST(QdqActivationPerChannelRuleTest, PerChannelActivationIsAnError) {
    const auto f = test::findingsOf(*model(3), kRule);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Error);
    EXPECT_NE(f[0].message.find("3 scales on axis 1"), std::string::npos) << f[0].message;
}

TEST(QdqActivationPerChannelRuleTest, PerTensorActivationIsFine) {
    EXPECT_TRUE(test::findingsOf(*model(1), kRule).empty());
}

}  // namespace
}  // namespace ql
