// MACs from the shapes the executor sees where ONNX shape inference cannot reach them (a Reshape to a computed
// shape): exact on a static model, approximate (and said so) with a symbolic input dim.
#include "core/exec/observed_costs.h"

#include <gtest/gtest.h>

#include "tests/support/runtime_shape_model.h"

namespace ql {
namespace {

const Node& nodeNamed(const Model& model, const std::string& name) {
    return model.graph().node(*model.graph().findNode(name));
}

TEST(ObservedCostsTest, StaticModelGetsTheMacsOfTheShapesTheRunSaw) {
    auto model = test::runtimeShapeModel().load();
    // What inference alone gives: conv2's spatial dims unknown, counted as 1.
    EXPECT_TRUE(costsNeedARun(model->graph()));
    EXPECT_LT(nodeNamed(*model, "conv2").cost.macs, test::kRuntimeShapeConv2Macs);
    ASSERT_TRUE(measureLayerCosts(*model).isOk());
    const LayerCost& conv2 = nodeNamed(*model, "conv2").cost;
    EXPECT_EQ(conv2.macs, test::kRuntimeShapeConv2Macs);
    EXPECT_FALSE(conv2.approximate);
    EXPECT_EQ(conv2.parameterBytes, 16 * 72 * 4);
    EXPECT_EQ(nodeNamed(*model, "conv1").cost.macs, test::kRuntimeShapeConv1Macs);
}

TEST(ObservedCostsTest, SymbolicInputLeavesTheCountApproximate) {
    auto model = test::runtimeShapeModel(true).load();
    ASSERT_TRUE(measureLayerCosts(*model).isOk());
    const LayerCost& conv2 = nodeNamed(*model, "conv2").cost;
    EXPECT_EQ(conv2.macs, test::kRuntimeShapeConv2Macs);  // at batch 1
    EXPECT_TRUE(conv2.approximate);
    EXPECT_TRUE(nodeNamed(*model, "conv1").cost.approximate);  // inference's own: N taken as 1
}

// Inference reached every shape (a symbolic batch is not a shape it missed): no run.
TEST(ObservedCostsTest, NoRunWhenInferenceReachedEveryShape) {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {-1, 3, 8, 8});
    b.initializer("w", {8, 3, 3, 3}, test::seededFloats(216));
    b.node("Conv", {"x", "w"}, {"y"}, "conv").ints("pads", {1, 1, 1, 1});
    b.output("y");
    EXPECT_FALSE(costsNeedARun(b.load()->graph()));
}

}  // namespace
}  // namespace ql
