// The written export is topologically sorted and passes the ONNX checker, whatever order the model lists its nodes in.
#include "core/export/written_graph.h"

#include <gtest/gtest.h>

#include "tests/core/export/export_check.h"
#include "tests/support/model_builder.h"
#include "tests/support/model_zoo.h"

namespace ql {
namespace {

using test::ModelBuilder;
using test::seededFloats;

int indexOfNode(const onnx::GraphProto& graph, const std::string& name) {
    for (int i = 0; i < graph.node_size(); ++i)
        if (graph.node(i).name() == name) return i;
    return -1;
}

TEST(WrittenGraphTest, Tf2onnxNhwcModelExportsSortedForEveryTarget) {
    auto model = test::tf2onnxNhwcModel();
    for (const TrtTarget& target : test::allTrtTargets()) {
        auto result = test::exportChecked(*model, target);
        ASSERT_TRUE(result);
        EXPECT_TRUE(checkTopologicalOrder(result->proto.graph())) << trtTargetName(target);
        // The shared Q/DQ of relu1 now comes before both readers, the MaxPool first.
        const auto& graph = result->proto.graph();
        const int pool = indexOfNode(graph, "model/pool/MaxPool");
        ASSERT_GE(pool, 0);
        const std::string read = graph.node(pool).input(0);
        ASSERT_NE(read, "relu1") << trtTargetName(target) << ": the MaxPool should read relu1 through Q/DQ";
        for (int i = pool; i < graph.node_size(); ++i)
            for (const auto& output : graph.node(i).output()) EXPECT_NE(output, read) << trtTargetName(target);
    }
}

onnx::NodeProto node(const std::string& op, const std::vector<std::string>& inputs, const std::string& output) {
    onnx::NodeProto proto;
    proto.set_op_type(op);
    proto.set_name(output);
    for (const auto& input : inputs) proto.add_input(input);
    proto.add_output(output);
    return proto;
}

std::vector<std::string> names(const onnx::GraphProto& graph) {
    std::vector<std::string> list;
    for (const auto& n : graph.node()) list.push_back(n.name());
    return list;
}

TEST(WrittenGraphTest, SortKeepsTheGivenOrderWhereItHoldsAndMovesOnlyWhatMust) {
    onnx::GraphProto graph;
    graph.add_input()->set_name("x");
    *graph.add_node() = node("Relu", {"x"}, "a");
    *graph.add_node() = node("Relu", {"dq"}, "b");  // reads what the next node writes
    *graph.add_node() = node("Identity", {"a"}, "dq");
    *graph.add_node() = node("Relu", {"x"}, "c");
    EXPECT_FALSE(checkTopologicalOrder(graph));
    ASSERT_TRUE(sortNodesTopologically(graph));
    EXPECT_EQ(names(graph), (std::vector<std::string>{"a", "dq", "b", "c"}));
    EXPECT_TRUE(checkTopologicalOrder(graph));
    ASSERT_TRUE(sortNodesTopologically(graph));
    EXPECT_EQ(names(graph), (std::vector<std::string>{"a", "dq", "b", "c"})) << "a sorted graph stays as it is";
}

TEST(WrittenGraphTest, ABodyReadingAnOuterNameComesAfterItsProducer) {
    onnx::GraphProto graph;
    graph.add_input()->set_name("cond");
    onnx::GraphProto body;
    *body.add_node() = node("Identity", {"late"}, "inner");
    body.add_output()->set_name("inner");
    onnx::NodeProto branch = node("If", {"cond"}, "if");
    auto* attr = branch.add_attribute();
    attr->set_name("then_branch");
    attr->set_type(onnx::AttributeProto::GRAPH);
    *attr->mutable_g() = body;
    *graph.add_node() = branch;
    *graph.add_node() = node("Identity", {"cond"}, "late");
    ASSERT_TRUE(sortNodesTopologically(graph));
    EXPECT_EQ(names(graph), (std::vector<std::string>{"late", "if"}));
}

TEST(WrittenGraphTest, ACycleOrAnUndefinedNameIsAnErrorNamingTheNode) {
    onnx::GraphProto graph;
    *graph.add_node() = node("Relu", {"b"}, "a");
    *graph.add_node() = node("Relu", {"a"}, "b");
    const Status cycle = sortNodesTopologically(graph);
    EXPECT_EQ(cycle.code(), StatusCode::Internal);
    EXPECT_NE(cycle.message().find("cycle through node 'a' (Relu)"), std::string::npos) << cycle.message();
    onnx::GraphProto dangling;
    *dangling.add_node() = node("Relu", {"nowhere"}, "r");
    const Status undefined = checkTopologicalOrder(dangling);
    EXPECT_NE(undefined.message().find("node 'r' (Relu) reads 'nowhere', which nothing writes"), std::string::npos)
        << undefined.message();
}

// What the writer returns instead of a file the checker rejects: an internal error with the checker's words, which
// name the node; a source model that already failed the checker is held to the order only.
TEST(WrittenGraphTest, ACheckerFailureIsAnInternalErrorNamingTheNode) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 4});
    b.node("Relu", {"x"}, {"r"}, "relu");
    b.node("NoSuchOp", {"r"}, {"y"}, "made_up");
    b.output("y", DataType::Float, {1, 4}, true);
    const Status status = checkWrittenModel(b.proto(), true);
    EXPECT_EQ(status.code(), StatusCode::Internal);
    EXPECT_NE(status.message().find("the written model fails the ONNX checker"), std::string::npos) << status.message();
    EXPECT_NE(status.message().find("made_up"), std::string::npos) << status.message();
    EXPECT_TRUE(checkWrittenModel(b.proto(), false)) << "the source's own problem";
}

}  // namespace
}  // namespace ql
