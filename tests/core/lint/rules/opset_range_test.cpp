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

}  // namespace
}  // namespace ql
