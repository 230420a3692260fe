// Which nodes have a precision to choose (issue 18 item 9: the precision table listed Constant nodes).
#include "core/model/fp16_form.h"

#include <gtest/gtest.h>

#include "core/model/model.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::ModelBuilder;

TEST(Fp16FormTest, OnlyNodesThatWriteFloatAndKeepNoWrittenTypeHaveAPrecisionChoice) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 3, 8, 8});
    b.initializer("w", {4, 3, 1, 1}, test::seededFloats(12));
    b.initializer("scale", {}, {0.02f});
    b.node("Constant", {}, {"shift"}, "const").tensor("value", test::makeTensor("v", DataType::Float, {}, {1.0}));
    b.node("Conv", {"x", "w"}, {"c"}, "conv");
    b.node("Add", {"c", "shift"}, {"a"}, "add");
    b.node("Relu", {"a"}, {"r"}, "relu");
    b.node("Shape", {"r"}, {"shape"}, "shape");
    b.node("QuantizeLinear", {"r", "scale"}, {"q"}, "quant");
    b.node("DequantizeLinear", {"q", "scale"}, {"y"}, "dequant");
    b.output("y");
    b.output("shape", DataType::Int64);
    const auto model = b.load();
    const Graph& graph = model->graph();
    const auto choice = [&](const char* name) { return hasPrecisionChoice(graph, graph.node(*graph.findNode(name))); };
    for (const char* name : {"conv", "add", "relu"}) EXPECT_TRUE(choice(name)) << name;
    for (const char* name : {"const", "shape", "quant", "dequant"}) EXPECT_FALSE(choice(name)) << name;
}

}  // namespace
}  // namespace ql
