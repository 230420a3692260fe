#include <gtest/gtest.h>

#include "core/model/graph.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::ModelBuilder;

TEST(GraphTest, NodesAreSortedTopologicallyEvenWhenTheFileIsNot) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 4});
    b.node("Relu", {"y"}, {"z"}, "second");
    b.node("Neg", {"x"}, {"y"}, "first");
    b.output("z");
    auto model = b.load();
    ASSERT_TRUE(model);
    const Graph& g = model->graph();
    ASSERT_EQ(g.nodes().size(), 2u);
    EXPECT_EQ(g.nodes()[0].name, "first");
    EXPECT_EQ(g.nodes()[1].name, "second");
    const Value& y = g.value(*g.findValue("y"));
    EXPECT_EQ(y.producer, 0);
    ASSERT_EQ(y.consumers.size(), 1u);
    EXPECT_EQ(y.consumers[0], 1);
}

TEST(GraphTest, InferredShapesAndDtypesAreStoredOnValues) {
    ModelBuilder b;
    b.input("x", DataType::Float, {2, 3});
    b.node("Transpose", {"x"}, {"t"});
    b.node("Relu", {"t"}, {"y"});
    b.output("y");
    auto model = b.load();
    ASSERT_TRUE(model);
    const Value& t = model->graph().value(*model->graph().findValue("t"));
    EXPECT_EQ(t.type.dtype, DataType::Float);
    EXPECT_EQ(t.type.shapeString(), "[3,2]");
    const Value& y = model->graph().value(*model->graph().findValue("y"));
    EXPECT_EQ(y.type.shapeString(), "[3,2]");
}

TEST(GraphTest, UnnamedNodesGetStableUniqueNames) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1});
    b.node("Relu", {"x"}, {"a"});
    b.node("Relu", {"a"}, {"b"}, "Relu_0");  // a user name that collides with the generated scheme
    b.node("Relu", {"b"}, {"c"});
    b.output("c");
    auto model = b.load();
    ASSERT_TRUE(model);
    const auto& nodes = model->graph().nodes();
    EXPECT_EQ(nodes[1].name, "Relu_0");
    EXPECT_FALSE(nodes[1].nameGenerated);
    EXPECT_NE(nodes[0].name, "Relu_0");
    EXPECT_NE(nodes[2].name, nodes[0].name);
    EXPECT_TRUE(nodes[0].nameGenerated);
    EXPECT_TRUE(model->graph().findNode(nodes[2].name).has_value());
}

}  // namespace
}  // namespace ql
