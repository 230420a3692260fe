#include "core/exec/kernels/if.h"

#include <gtest/gtest.h>

#include "tests/core/exec/kernels/control_flow_test_util.h"
#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql::test {

namespace {

// y = If(c) then x + 1 else x * x, both branches reading x from the enclosing graph.
ModelBuilder addOrSquare(int64_t opset, const std::vector<int64_t>& conditionShape = {1}) {
    ModelBuilder b(opset);
    b.input("c", DataType::Bool, conditionShape);
    b.input("x", DataType::Float, {3});
    const auto thenBranch = subgraph(
        "then",
        [](ModelBuilder& g) {
            g.initializer("one", {1}, {1.0f});
            g.node("Add", {"x", "one"}, {"t"});
            g.output("t", DataType::Float, {3}, true);
        },
        opset);
    const auto elseBranch = subgraph(
        "else",
        [](ModelBuilder& g) {
            g.node("Mul", {"x", "x"}, {"e"});
            g.output("e", DataType::Float, {3}, true);
        },
        opset);
    b.node("If", {"c"}, {"y"}, "choose").graph("then_branch", thenBranch).graph("else_branch", elseBranch);
    b.output("y");
    return b;
}

}  // namespace

TEST(IfTest, RunsTheBranchTheConditionPicksWithOuterScopeValues) {
    for (int64_t opset : {11, 13, 16}) {
        const ModelBuilder b = addOrSquare(opset);
        const Tensor x = floats({3}, {1, 2, -3});
        auto yes = runModel(b, {{"c", bools({1}, {1})}, {"x", x}});
        ASSERT_TRUE(yes) << yes.status().message();
        expectNear((*yes)[0], {2, 3, -2});
        auto no = runModel(b, {{"c", bools({1}, {0})}, {"x", x}});
        ASSERT_TRUE(no) << no.status().message();
        expectNear((*no)[0], {1, 4, 9});
    }
}

TEST(IfTest, OpsetAbove17KeepsTheSameForm) {
    const ModelBuilder b = addOrSquare(21);  // If-19/21 only widen the value types
    auto out = runModel(b, {{"c", bools({1}, {0})}, {"x", floats({3}, {2, 2, 2})}});
    ASSERT_TRUE(out) << out.status().message();
    expectNear((*out)[0], {4, 4, 4});
}

TEST(IfTest, ABranchMayOutputAnOuterValueAsItIs) {
    ModelBuilder b(13);
    b.input("c", DataType::Bool, {});
    b.input("x", DataType::Float, {2});
    b.input("z", DataType::Float, {2});
    const auto pass = subgraph("pass", [](ModelBuilder& g) { g.output("x", DataType::Float, {2}, true); });
    const auto other = subgraph("other", [](ModelBuilder& g) { g.output("z", DataType::Float, {2}, true); });
    b.node("If", {"c"}, {"y"}).graph("then_branch", pass).graph("else_branch", other);
    b.output("y");
    auto out = runModel(b, {{"c", bools({}, {0})}, {"x", floats({2}, {1, 2})}, {"z", floats({2}, {5, 6})}});
    ASSERT_TRUE(out) << out.status().message();
    expectNear((*out)[0], {5, 6});
}

TEST(IfTest, AConditionOfSeveralElementsIsAnErrorNamingTheNode) {
    const ModelBuilder b = addOrSquare(13, {2});
    auto out = runModel(b, {{"c", bools({2}, {1, 0})}, {"x", floats({3}, {1, 2, 3})}});
    ASSERT_FALSE(out);
    EXPECT_NE(out.status().message().find("Node (choose) Op (If)"), std::string::npos) << out.status().message();
    EXPECT_NE(out.status().message().find("exactly one element"), std::string::npos);
}

TEST(IfTest, BranchesWithTooFewOutputsAreRefusedWhenTheExecutorIsBuilt) {
    ModelBuilder b(13);
    b.input("c", DataType::Bool, {});
    b.input("x", DataType::Float, {2});
    const auto one = subgraph("one", [](ModelBuilder& g) { g.output("x", DataType::Float, {2}, true); });
    b.node("If", {"c"}, {"y", "w"}, "two_outputs").graph("then_branch", one).graph("else_branch", one);
    b.output("y");
    b.output("w");
    auto model = b.tryLoad();
    ASSERT_TRUE(model) << model.status().message();
    auto exec = Executor::create((*model)->graph());
    ASSERT_FALSE(exec);
    EXPECT_NE(exec.status().message().find("Node (two_outputs) Op (If): a branch has 1 outputs"), std::string::npos)
        << exec.status().message();
}

TEST(IfTest, NestedIfReadsValuesTwoScopesOut) {
    ModelBuilder b(13);
    b.input("c", DataType::Bool, {});
    b.input("x", DataType::Float, {2});
    const auto innerThen = subgraph("inner_then", [](ModelBuilder& g) {
        g.node("Neg", {"x"}, {"n"});
        g.output("n", DataType::Float, {2}, true);
    });
    const auto innerElse = subgraph("inner_else", [](ModelBuilder& g) { g.output("x", DataType::Float, {2}, true); });
    const auto outerThen = subgraph("outer_then", [&](ModelBuilder& g) {
        g.node("If", {"c"}, {"i"}, "inner").graph("then_branch", innerThen).graph("else_branch", innerElse);
        g.output("i", DataType::Float, {2}, true);
    });
    b.node("If", {"c"}, {"y"}, "outer").graph("then_branch", outerThen).graph("else_branch", innerElse);
    b.output("y");
    auto out = runModel(b, {{"c", bools({}, {1})}, {"x", floats({2}, {1, -2})}});
    ASSERT_TRUE(out) << out.status().message();
    expectNear((*out)[0], {-1, 2});
}

}  // namespace ql::test
