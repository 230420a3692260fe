// Opset 7-12 models export: raising them to 13 gets the shapes ONNX's inference could not find from the executor.
#include "core/export/opset_shapes.h"

#include <gtest/gtest.h>

#include "core/exec/executor.h"
#include "core/exec/random_inputs.h"
#include "tests/core/export/export_check.h"
#include "tests/support/model_builder.h"
#include "tests/support/model_zoo.h"

namespace ql {
namespace {

using test::ModelBuilder;
using test::seededFloats;

// What the user saw: "cannot raise opset 9 to 13 for Q/DQ: ... adapt_softmax_12_13 ... input shape is unknown".
TEST(OpsetRaiseTest, SoftmaxAfterAComputedViewExportsForEveryTargetFromOpsets7To12) {
    for (const int64_t opset : {7, 9, 11, 12}) {
        SCOPED_TRACE("opset " + std::to_string(opset));
        auto model = test::pytorchClassifier(opset, true);
        EXPECT_FALSE(model->graph().value(*model->graph().findValue("logits")).type.hasShape)
            << "the case needs a tensor shape inference does not reach";
        EXPECT_TRUE(opsetRaiseNeedsShapes(model->graph()));
        for (const TrtTarget& target : test::allTrtTargets()) {
            auto result = test::exportChecked(*model, target);
            ASSERT_TRUE(result);
            EXPECT_EQ(result->prepared->graph().opsetVersion(""), 13);
            const auto layers = test::summaryQdqLayers(*result);
            EXPECT_TRUE(layers.count("conv") == 1 && layers.count("fc") == 1) << trtTargetName(target);
        }
    }
}

TEST(OpsetRaiseTest, TheRaisedModelKeepsItsDynamicBatch) {
    auto model = test::pytorchClassifier(9, true);
    auto result = test::exportChecked(*model, {TrtVersion::Trt10, TrtTyping::Strong});
    ASSERT_TRUE(result);
    auto reopened = test::loadProto(result->proto);
    const Graph& graph = reopened->graph();
    EXPECT_FALSE(graph.value(graph.inputs().front()).type.dims.front().known());
    auto executor = Executor::create(graph);
    ASSERT_TRUE(executor) << executor.status().message();
    auto inputs = randomInputs(graph, 1, 3);  // a batch of 3, where the seeded runs used 1 and 2
    ASSERT_TRUE(inputs);
    auto outputs = (*executor)->run(*inputs);
    ASSERT_TRUE(outputs) << outputs.status().message();
    EXPECT_EQ(outputs->front().second.shape(), (Shape{3, 10}));
}

TEST(OpsetRaiseTest, FlattenGemmSoftmaxAtOpset9NeedsNoRun) {
    auto model = test::pytorchClassifier(9, false);
    EXPECT_FALSE(opsetRaiseNeedsShapes(model->graph()));
    for (const TrtTarget& target : test::allTrtTargets()) EXPECT_TRUE(test::exportChecked(*model, target));
}

// The converter writes the input shape of a Softmax over a middle axis into a Reshape, where only one dim may be -1.
TEST(OpsetRaiseTest, SoftmaxOverAMiddleAxisWithTwoDynamicDimsIsAnErrorNamingTheNode) {
    ModelBuilder b(11);
    b.input("x", DataType::Float, {-1, 3, -1, -1});
    b.initializer("w", {4, 3, 3, 3}, seededFloats(108, 1));
    b.node("Conv", {"x", "w"}, {"c"}, "conv");
    b.node("Softmax", {"c"}, {"y"}, "class_softmax").i("axis", 1);
    b.output("y");
    auto model = b.load();
    const CalibrationResult calibration = test::uniformCalibration(model->graph());
    auto result = exportQdq(*model, PrecisionPlan(model->graph(), Precision::Int8), calibration);
    ASSERT_FALSE(result);
    EXPECT_NE(result.status().message().find("cannot raise opset 11 to 13"), std::string::npos)
        << result.status().message();
    EXPECT_NE(result.status().message().find("Node (class_softmax) Op (Softmax)"), std::string::npos)
        << result.status().message();
    EXPECT_NE(result.status().message().find("opset 13 or later"), std::string::npos) << result.status().message();
}

}  // namespace
}  // namespace ql
