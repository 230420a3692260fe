// Model::load builds the graph while shape inference runs in its helper process, then takes the inferred types in
// with GraphBuilder::retype instead of building again: the graph must equal a build of the inferred model, on every
// model of the corpus.
#include <gtest/gtest.h>

#include "core/model/external_data.h"
#include "core/model/graph_builder.h"
#include "tests/support/model_builder.h"
#include "tests/support/model_zoo.h"

namespace ql {
namespace {

std::string typeText(const TensorType& type) {
    return std::to_string(static_cast<int>(type.dtype)) + " " + type.shapeString();
}

void expectSameGraph(const Graph& loaded, const Graph& built) {
    ASSERT_EQ(loaded.values().size(), built.values().size());
    for (size_t v = 0; v < built.values().size(); ++v)
        EXPECT_EQ(typeText(loaded.values()[v].type), typeText(built.values()[v].type)) << built.values()[v].name;
    ASSERT_EQ(loaded.nodes().size(), built.nodes().size());
    for (size_t n = 0; n < built.nodes().size(); ++n) {
        EXPECT_EQ(loaded.nodes()[n].cost.macs, built.nodes()[n].cost.macs) << built.nodes()[n].name;
        EXPECT_EQ(loaded.nodes()[n].cost.approximate, built.nodes()[n].cost.approximate) << built.nodes()[n].name;
    }
}

class GraphRetype : public testing::TestWithParam<test::ZooModel> {};

TEST_P(GraphRetype, LoadedGraphEqualsABuildOfTheInferredModel) {
    const auto model = GetParam().load();
    ASSERT_TRUE(model);
    ExternalDataResolver externalData("");
    auto built = GraphBuilder::build(model->proto(), externalData);
    ASSERT_TRUE(built) << built.status().message();
    expectSameGraph(model->graph(), *built);
}

INSTANTIATE_TEST_SUITE_P(Zoo, GraphRetype, testing::ValuesIn(test::modelZoo()),
                         [](const testing::TestParamInfo<test::ZooModel>& info) { return info.param.name; });

// Without retype the outputs would keep the types the file declared before inference: here none, so the types
// shown come from inference alone, and a stale build would say "?".
TEST(GraphRetype, UndeclaredTypesComeFromInference) {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {1, 3, 8, 8});
    b.initializer("w", {4, 3, 3, 3}, test::seededFloats(108));
    b.node("Conv", {"x", "w"}, {"y"}, "conv");
    b.node("Relu", {"y"}, {"z"}, "relu");
    b.output("z");  // no type given
    const auto model = b.load();
    ASSERT_TRUE(model);
    const Graph& graph = model->graph();
    EXPECT_EQ(graph.value(*graph.findValue("y")).type.shapeString(), "[1,4,6,6]");
    EXPECT_EQ(graph.value(*graph.findValue("z")).type.shapeString(), "[1,4,6,6]");
    EXPECT_EQ(graph.value(*graph.findValue("z")).type.dtype, DataType::Float);
    EXPECT_EQ(graph.node(*graph.findNode("conv")).cost.macs, 4 * 6 * 6 * 3 * 3 * 3);
}

}  // namespace
}  // namespace ql
