// trt-opset-range: the model's opset must be within what the target's parser handles.
#include <gtest/gtest.h>

#include "tests/core/lint/lint_test_util.h"

namespace ql {
namespace {

constexpr const char* kRule = "trt-opset-range";

std::unique_ptr<Model> reluAtOpset(int64_t opset) {
    test::ModelBuilder b(opset);
    b.input("x", DataType::Float, {4});
    b.node("Relu", {"x"}, {"y"}, "relu");
    b.output("y");
    return b.load();
}

TEST(OpsetRangeRuleTest, OpsetBelowNineIsOutsideTrt10) {
    const auto f = test::findingsOf(*reluAtOpset(8), kRule, TrtVersion::Trt10);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_NE(f[0].message.find("opset 8"), std::string::npos) << f[0].message;
    EXPECT_TRUE(test::findingsOf(*reluAtOpset(8), kRule, TrtVersion::Trt86).empty());
    EXPECT_TRUE(test::findingsOf(*reluAtOpset(13), kRule, TrtVersion::Trt10).empty());
}

TEST(OpsetRangeTrt11Test, Opset25NeedsTrt115AndIsBeyondTrt10) {
    const auto model = reluAtOpset(25);
    const auto trt11 = test::findingsOf(*model, kRule, TrtVersion::Trt11);
    ASSERT_EQ(trt11.size(), 1u);
    EXPECT_EQ(trt11[0].severity, Severity::Info);
    EXPECT_NE(trt11[0].message.find("TensorRT 11.5 or later parses it"), std::string::npos) << trt11[0].message;
    const auto trt10 = test::findingsOf(*model, kRule, TrtVersion::Trt10);
    ASSERT_EQ(trt10.size(), 1u);
    EXPECT_EQ(trt10[0].severity, Severity::Warning);
    EXPECT_TRUE(test::findingsOf(*reluAtOpset(24), kRule, TrtVersion::Trt11).empty());
}

}  // namespace
}  // namespace ql
