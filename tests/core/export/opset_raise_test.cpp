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

// PP-OCRv4 rec (opset 9, input [?,3,48,?]) failed to export: the executor's run for the missing shapes put 1 in the
// open width, and a pooling window wider than that fails. The run now takes the sizes the calibration saw.
TEST(OpsetRaiseTest, TheShapesRunTakesTheCalibrationsInputSizes) {
    ModelBuilder b(9);
    b.input("x", DataType::Float, {-1, 3, 8, -1});
    b.initializer("w", {4, 3, 3, 3}, seededFloats(108, 1));
    b.initializer("zero", DataType::Int64, {}, {0});
    b.initializer("minus_one", DataType::Int64, {1}, {-1});
    b.node("Conv", {"x", "w"}, {"c"}, "conv").ints("pads", {1, 1, 1, 1});
    b.node("MaxPool", {"c"}, {"p"}, "pool").ints("kernel_shape", {2, 4}).ints("strides", {2, 4});
    b.node("Shape", {"p"}, {"shape"}, "shape");
    b.node("Gather", {"shape", "zero"}, {"batch"}, "gather").i("axis", 0);
    b.node("Unsqueeze", {"batch"}, {"batch1"}, "unsqueeze").ints("axes", {0});
    b.node("Concat", {"batch1", "minus_one"}, {"view_shape"}, "concat").i("axis", 0);
    b.node("Reshape", {"p", "view_shape"}, {"flat"}, "view");
    b.node("Softmax", {"flat"}, {"y"}, "softmax");
    b.output("y");
    auto model = b.load();
    ASSERT_TRUE(opsetRaiseNeedsShapes(model->graph()));
    CalibrationResult calibration = test::uniformCalibration(model->graph());
    const PrecisionPlan plan(model->graph(), Precision::Int8);
    const auto unseen = exportQdq(*model, plan, calibration);
    ASSERT_FALSE(unseen);
    EXPECT_NE(unseen.status().message().find("pooling window is larger"), std::string::npos)
        << unseen.status().message();
    calibration.inputShapes = {{"x", {2, 3, 8, 16}, {2, 3, 8, 16}, {2, 3, 8, 16}}};
    const auto result = exportQdq(*model, plan, calibration);
    ASSERT_TRUE(result) << result.status().message();
    EXPECT_EQ(result->prepared->graph().opsetVersion(""), 13);
    EXPECT_NO_THROW(onnx::checker::check_model(result->proto));
    // Nothing of the calibration's sizes is baked in: another width and batch run.
    auto reopened = test::loadProto(result->proto);
    auto executor = Executor::create(reopened->graph());
    ASSERT_TRUE(executor) << executor.status().message();
    auto inputs = randomInputs(reopened->graph(), 1, 3, {{"x", {1, 3, 8, 8}}});  // [3, 3, 8, 24]
    ASSERT_TRUE(inputs);
    auto outputs = (*executor)->run(*inputs);
    ASSERT_TRUE(outputs) << outputs.status().message();
    EXPECT_EQ(outputs->front().second.shape(), (Shape{3, 4 * 4 * 6}));
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
