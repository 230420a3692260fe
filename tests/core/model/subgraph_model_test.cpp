// A control-flow node's body as a model of its own: outer-scope reads become typed graph inputs (nested bodies'
// reads included), nested bodies open over the body's Graph, and a malformed body is an error naming where it is.
#include "core/model/subgraph_model.h"

#include <gtest/gtest.h>

#include "tests/support/control_flow_model.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

const Node& nodeNamed(const Graph& graph, const std::string& name) {
    const auto id = graph.findNode(name);
    EXPECT_TRUE(id.has_value()) << name;
    return graph.node(id.value_or(0));
}

// If "choose" over x [2]: `thenB` as then_branch, Neg(x) as else_branch.
std::unique_ptr<Model> chooseModel(test::ModelBuilder& thenB, const LoadOptions& options = {}) {
    test::ModelBuilder elseB;
    elseB.node("Neg", {"x"}, {"n"}, "negate");
    elseB.output("n", DataType::Float, {2});
    test::ModelBuilder b;
    b.input("cond", DataType::Bool, {});
    b.input("x", DataType::Float, {2});
    b.node("If", {"cond"}, {"y"}, "choose").graph("then_branch", thenB.graph()).graph("else_branch", elseB.graph());
    b.output("y", DataType::Float, {2});
    return b.load(options);
}

std::vector<std::string> nodeNames(const Graph& graph) {
    std::vector<std::string> names;
    for (const Node& node : graph.nodes()) names.push_back(node.name);
    return names;
}

TEST(SubgraphModelTest, OuterScopeValuesBecomeTypedInputs) {
    const auto model = test::nestedControlFlowModel();
    const Graph& graph = model->graph();
    auto body = buildSubgraphModel(graph, nodeNamed(graph, "branch"), "then_branch");
    ASSERT_TRUE(body.isOk()) << body.status().message();
    EXPECT_EQ(nodeNames(body->graph), (std::vector<std::string>{"double", "repeat"}));
    // `r` is read by `double` and, two levels in, by the Loop's body: one input, typed as the main graph knows it.
    ASSERT_EQ(body->graph.inputs().size(), 1u);
    const Value& r = body->graph.value(body->graph.inputs().front());
    EXPECT_EQ(r.name, "r");
    EXPECT_EQ(r.type.dtype, DataType::Float);
    EXPECT_EQ(r.type.shapeString(), "[1,4]");
    EXPECT_EQ(body->graph.opsetVersion(), graph.opsetVersion());
    EXPECT_EQ(nodeNamed(body->graph, "repeat").subgraphs.size(), 1u);
}

TEST(SubgraphModelTest, NestedBodiesOpenOverTheBodysGraph) {
    const auto model = test::nestedControlFlowModel();
    auto branch = buildSubgraphModel(model->graph(), nodeNamed(model->graph(), "branch"), "then_branch");
    ASSERT_TRUE(branch.isOk()) << branch.status().message();
    SubgraphModel moved = std::move(branch).value();  // the Graph still points into the moved model
    auto loop = buildSubgraphModel(moved.graph, nodeNamed(moved.graph, "repeat"), "body");
    ASSERT_TRUE(loop.isOk()) << loop.status().message();
    EXPECT_EQ(nodeNames(loop->graph), (std::vector<std::string>{"keep_going", "accumulate", "clamp"}));
    std::vector<std::string> inputs;
    for (ValueId id : loop->graph.inputs()) inputs.push_back(loop->graph.value(id).name);
    EXPECT_EQ(inputs, (std::vector<std::string>{"iteration", "cond_in", "state", "r"}));
    EXPECT_EQ(loop->graph.value(*loop->graph.findValue("r")).type.shapeString(), "[1,4]");
    EXPECT_EQ(nodeNamed(loop->graph, "accumulate").proto->op_type(), "Add");
}

// The loader keeps what shape inference found inside bodies (value_info of every nesting level).
TEST(SubgraphModelTest, ValuesInsideABodyHaveTheirInferredTypes) {
    const auto model = test::nestedControlFlowModel();
    auto branch = buildSubgraphModel(model->graph(), nodeNamed(model->graph(), "branch"), "then_branch");
    ASSERT_TRUE(branch.isOk()) << branch.status().message();
    const Value& t = branch->graph.value(*branch->graph.findValue("t"));
    EXPECT_EQ(t.type.dtype, DataType::Float);
    EXPECT_EQ(t.type.shapeString(), "[1,4]");
    auto loop = buildSubgraphModel(branch->graph, nodeNamed(branch->graph, "repeat"), "body");
    ASSERT_TRUE(loop.isOk()) << loop.status().message();
    EXPECT_EQ(loop->graph.value(*loop->graph.findValue("sum")).type.shapeString(), "[1,4]");
}

TEST(SubgraphModelTest, ABodyReturningAnOuterValueBuilds) {
    test::ModelBuilder thenB;
    thenB.output("x", DataType::Float, {2});
    const auto model = chooseModel(thenB);
    auto body = buildSubgraphModel(model->graph(), nodeNamed(model->graph(), "choose"), "then_branch");
    ASSERT_TRUE(body.isOk()) << body.status().message();
    EXPECT_TRUE(body->graph.nodes().empty());
    EXPECT_TRUE(body->graph.value(*body->graph.findValue("x")).isGraphOutput);
}

TEST(SubgraphModelTest, AMalformedBodyIsAnErrorNamingNodeAndAttribute) {
    test::ModelBuilder thenB;
    thenB.node("Relu", {"x"}, {"t"}, "first");
    thenB.node("Neg", {"x"}, {"t"}, "second");  // writes `t` again
    thenB.output("t", DataType::Float, {2});
    LoadOptions unchecked;
    unchecked.runChecker = false;
    unchecked.inferShapes = false;
    const auto model = chooseModel(thenB, unchecked);
    const Node& choose = nodeNamed(model->graph(), "choose");

    auto bad = buildSubgraphModel(model->graph(), choose, "then_branch");
    ASSERT_FALSE(bad.isOk());
    EXPECT_EQ(bad.status().code(), StatusCode::InvalidModel);
    EXPECT_NE(bad.status().message().find("Node (choose) Op (If): in then_branch: "), std::string::npos)
        << bad.status().message();
    EXPECT_NE(bad.status().message().find("'t'"), std::string::npos) << bad.status().message();
    EXPECT_TRUE(buildSubgraphModel(model->graph(), choose, "else_branch").isOk());

    auto missing = buildSubgraphModel(model->graph(), choose, "body");
    ASSERT_FALSE(missing.isOk());
    EXPECT_EQ(missing.status().message(), "Node (choose) Op (If): has no subgraph attribute 'body'");
}

}  // namespace
}  // namespace ql
