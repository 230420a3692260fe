// The INT8 placement on the unfolded model (what the simulation uses) gives the weights the scales the export
// gives them after folding BatchNormalization, and agrees with the export on which BatchNormalizations fold.
#include <gtest/gtest.h>

#include "core/export/qdq_export.h"
#include "core/quant/batchnorm_fold.h"
#include "core/quant/qdq_placement.h"
#include "tests/support/calibration_fixture.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::ModelBuilder;
using test::seededFloats;

void addBatchNorm(ModelBuilder& b, const std::string& in, const std::string& out, const std::string& name) {
    b.initializer(name + "_s", {4}, {0.5f, -2.0f, 1.5f, 0.0f});  // a negative and a zero factor too
    b.initializer(name + "_b", {4}, seededFloats(4, 3));
    b.initializer(name + "_m", {4}, seededFloats(4, 4));
    b.initializer(name + "_v", {4}, seededFloats(4, 5, 0.5f, 2.0f));
    b.node("BatchNormalization", {in, name + "_s", name + "_b", name + "_m", name + "_v"}, {out}, name);
}

// conv0 -> bn0 (folds) -> Relu -> conv1 -> bn1 (does not: conv1's output is also a graph output)
//   -> Add(bn1, relu): a residual Add fused with conv1 only when bn1 folds.
std::unique_ptr<Model> model() {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 4, 6, 6});
    b.initializer("w0", {4, 4, 3, 3}, seededFloats(144, 1));
    b.initializer("w1", {4, 4, 3, 3}, seededFloats(144, 2));
    b.node("Conv", {"x", "w0"}, {"c0"}, "conv0").ints("pads", {1, 1, 1, 1});
    addBatchNorm(b, "c0", "n0", "bn0");
    b.node("Relu", {"n0"}, {"r0"}, "relu0");
    b.node("Conv", {"r0", "w1"}, {"c1"}, "conv1").ints("pads", {1, 1, 1, 1});
    addBatchNorm(b, "c1", "n1", "bn1");
    b.node("Add", {"n1", "r0"}, {"y"}, "add");
    b.output("y");
    b.output("c1");
    return b.load();
}

std::map<std::string, std::vector<float>> weightScales(const Graph& graph, const QdqPlacement& placement) {
    std::map<std::string, std::vector<float>> scales;
    for (const auto& edge : placement.edges)
        if (edge.weight) scales[graph.node(edge.consumer).name] = edge.scales;
    return scales;
}

TEST(BatchNormPlacementTest, UnfoldedPlacementHasTheExportsFoldedWeightScales) {
    const auto original = model();
    const Graph& graph = original->graph();
    const PrecisionPlan plan(graph, Precision::Int8);
    auto exported = exportQdq(*original, plan, test::uniformCalibration(graph, {}, 4.0f));
    ASSERT_TRUE(exported) << exported.status().message();
    auto unfolded = placeQdq(graph, effectivePrecisions(graph, plan),
                             *activationAmax(test::uniformCalibration(graph, {}, 4.0f), plan), {});
    ASSERT_TRUE(unfolded) << unfolded.status().message();
    EXPECT_EQ(weightScales(graph, *unfolded), weightScales(exported->prepared->graph(), exported->placement));
    ASSERT_TRUE(foldedBatchNorm(graph, graph.node(*graph.findNode("conv0"))));
    EXPECT_FALSE(foldedBatchNorm(graph, graph.node(*graph.findNode("conv1"))));
    int folds = 0;
    for (const auto& step : exported->steps) folds += step.action == "fold-batchnorm" ? 1 : 0;
    EXPECT_EQ(folds, 1);
}

TEST(BatchNormPlacementTest, ResidualAddFusesThroughAFoldedBatchNorm) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 4, 6, 6});
    b.initializer("w", {4, 4, 3, 3}, seededFloats(144, 1));
    b.node("Relu", {"x"}, {"r"}, "relu");
    b.node("Conv", {"r", "w"}, {"c"}, "conv").ints("pads", {1, 1, 1, 1});
    addBatchNorm(b, "c", "n", "bn");
    b.node("Add", {"n", "r"}, {"y"}, "add");
    b.output("y");
    const auto m = b.load();
    const Graph& graph = m->graph();
    const PrecisionPlan plan(graph, Precision::Int8);
    auto placement = placeQdq(graph, effectivePrecisions(graph, plan),
                              *activationAmax(test::uniformCalibration(graph, {}, 4.0f), plan), {});
    ASSERT_TRUE(placement) << placement.status().message();
    bool skipQuantized = false;
    for (const auto& edge : placement->edges)
        skipQuantized |= graph.node(edge.consumer).name == "add" && graph.value(edge.tensor).name == "r";
    EXPECT_TRUE(skipQuantized);
    const auto& add = placement->layers.at(static_cast<size_t>(*graph.findNode("add")));
    EXPECT_NE(add.reason.find("fused with 'conv'"), std::string::npos) << add.reason;
}

}  // namespace
}  // namespace ql
