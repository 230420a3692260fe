// The bodies of If/Loop/Scan nodes are linted too, their findings reported on the control-flow node with the path.
#include <gtest/gtest.h>

#include "tests/core/lint/lint_test_util.h"

namespace ql {
namespace {

// if cond: Q/DQ of the outer value `x` with a zero scale (a dead channel), else x; the then-branch reads `x` from the
// outer scope, and a Loop nested in the else-branch does the same.
std::unique_ptr<Model> branchWithZeroScale(bool zero) {
    test::ModelBuilder thenB, elseB;
    thenB.initializer("s", {}, {zero ? 0.0f : 0.05f});
    thenB.node("QuantizeLinear", {"x", "s"}, {"xq"}, "x_q");
    thenB.node("DequantizeLinear", {"xq", "s"}, {"xdq"}, "x_dq");
    thenB.output("xdq", DataType::Float, {1, 4});
    elseB.node("Identity", {"x"}, {"xe"}, "same");
    elseB.output("xe", DataType::Float, {1, 4});
    test::ModelBuilder b;
    b.input("cond", DataType::Bool, {});
    b.input("x", DataType::Float, {1, 4});
    b.node("If", {"cond"}, {"y"}, "branch").graph("then_branch", thenB.graph()).graph("else_branch", elseB.graph());
    b.output("y", DataType::Float, {1, 4});
    return b.load();
}

TEST(SubgraphLintTest, FindingsInsideABodyNameTheirPath) {
    const auto f = test::findingsOf(*branchWithZeroScale(true), "trt-qdq-scale-positive");
    ASSERT_EQ(f.size(), 2u);
    EXPECT_EQ(f[0].nodeName, "branch/then_branch/x_q");
    EXPECT_EQ(f[0].opType, "If");
    EXPECT_NE(f[0].message.find("in branch/then_branch/: "), std::string::npos) << f[0].message;
    const auto model = branchWithZeroScale(true);
    EXPECT_EQ(f[0].node, *model->graph().findNode("branch"));
}

TEST(SubgraphLintTest, ACleanBodyAddsNothing) {
    EXPECT_TRUE(test::findingsOf(*branchWithZeroScale(false), "trt-qdq-scale-positive").empty());
}

}  // namespace
}  // namespace ql
