// trt-qdq-activation-per-channel: activations take one scale.
#include <gtest/gtest.h>

#include "tests/core/lint/lint_test_util.h"

namespace ql {
namespace {

constexpr const char* kRule = "trt-qdq-activation-per-channel";

std::unique_ptr<Model> model(size_t scales, const std::string& consumer = "Relu") {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {1, 3, 4, 4});
    const std::string x = test::addQdq(b, "x", test::perChannel(scales, 0.02f, 1));
    auto node = b.node(consumer, {x}, {"y"}, "consumer");
    if (consumer == "MaxPool") node.ints("kernel_shape", {2, 2});
    b.output("y");
    return b.load();
}

TEST(QdqActivationPerChannelRuleTest, PerChannelActivationIsAnError) {
    const auto f = test::findingsOf(*model(3), kRule);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Error);
    EXPECT_NE(f[0].message.find("3 scales on axis 1"), std::string::npos) << f[0].message;
    EXPECT_EQ(f[0].message.find("numScales"), std::string::npos) << f[0].message;
}

// SmoothQuant-style per-channel scales reaching a pooling op: the message quotes TensorRT's assertion (#4008).
TEST(QdqActivationPerChannelRuleTest, PerChannelScalesReachingAPoolQuoteTheAssertion) {
    const auto f = test::findingsOf(*model(3, "MaxPool"), kRule);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_NE(f[0].message.find("stops at MaxPool 'consumer' with \"Assertion numScales == mGlobRefs.scale.count() "
                                "failed\""),
              std::string::npos)
        << f[0].message;
}

TEST(QdqActivationPerChannelRuleTest, PerTensorActivationIsFine) {
    EXPECT_TRUE(test::findingsOf(*model(1), kRule).empty());
}

}  // namespace
}  // namespace ql
