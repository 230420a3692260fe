#include "core/quant/qdq_placement.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <tuple>

#include "core/export/graph_preparation.h"
#include "core/lint/lint_policy.h"
#include "core/quant/default_placement.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::ModelBuilder;

// x -> Conv (weight w -> Identity -> Identity) -> c -> Add(c, x) -> y, every node INT8.
ModelBuilder identityWeightModel() {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 3, 4, 4});
    b.initializer("w", {3, 3, 1, 1}, test::seededFloats(9, 71));
    b.node("Identity", {"w"}, {"w1"}, "id1");
    b.node("Identity", {"w1"}, {"w2"}, "id2");
    b.node("Conv", {"x", "w2"}, {"c"}, "conv");
    b.node("Add", {"c", "x"}, {"y"}, "add");
    b.output("y");
    return b;
}

PrecisionByName allInt8(const Graph& graph) {
    PrecisionByName precisions;
    for (const Node& node : graph.nodes()) precisions[node.name] = Precision::Int8;
    return precisions;
}

const AmaxByName kAmax = {{"x", 0.8f}, {"w1", 4.0f}, {"w2", 4.0f}, {"c", 1.5f}, {"y", 2.0f}};

// An edge by names, so placements of two graphs (original and prepared) compare.
using NamedEdge = std::tuple<std::string, int32_t, std::string, bool, int64_t, std::vector<float>>;

std::vector<NamedEdge> namedEdges(const Graph& graph, const QdqPlacement& placement) {
    std::vector<NamedEdge> edges;
    for (const QdqEdge& e : placement.edges)
        edges.emplace_back(graph.node(e.consumer).name, e.input, graph.value(e.tensor).name, e.weight, e.axis,
                           e.scales);
    std::sort(edges.begin(), edges.end());
    return edges;
}

TEST(QdqPlacementTest, WeightBehindIdentityChainIsAPerChannelWeight) {
    const auto model = identityWeightModel().load();
    const Graph& graph = model->graph();
    auto placement = placeQdq(graph, allInt8(graph), kAmax, {});
    ASSERT_TRUE(placement.isOk()) << placement.status().message();
    const std::vector<float> w = test::seededFloats(9, 71);
    std::vector<float> scales(3, 0.0f);
    for (size_t i = 0; i < w.size(); ++i) scales[i / 3] = std::max(scales[i / 3], std::abs(w[i]));
    for (float& s : scales) s /= 127.0f;
    const auto edges = namedEdges(graph, *placement);
    EXPECT_NE(std::find(edges.begin(), edges.end(), NamedEdge{"conv", 1, "w2", true, 0, scales}), edges.end());
    EXPECT_EQ(placement->layers[static_cast<size_t>(*graph.findNode("conv"))].precision, Precision::Int8);
}

TEST(QdqPlacementTest, OriginalAndPreparedGraphsGetTheSameEdges) {
    const auto model = identityWeightModel().load();
    auto prepared = prepareModel(*model);
    ASSERT_TRUE(prepared.isOk()) << prepared.status().message();
    const Graph& original = model->graph();
    const Graph& folded = prepared->model->graph();
    ASSERT_LT(folded.nodes().size(), original.nodes().size());  // the Identity nodes are gone
    auto before = placeQdq(original, allInt8(original), kAmax, {});
    auto after = placeQdq(folded, allInt8(original), kAmax, {});
    ASSERT_TRUE(before.isOk() && after.isOk());
    // conv input, conv weight, Add skip input.
    EXPECT_EQ(namedEdges(original, *before).size(), 3u);
    EXPECT_EQ(namedEdges(original, *before), namedEdges(folded, *after));
}

TEST(QdqPlacementTest, LayerFallingBackForAMissingScaleNamesTheInput) {
    const auto model = identityWeightModel().load();
    const Graph& graph = model->graph();
    AmaxByName amax = kAmax;
    amax.erase("x");
    auto placement = placeQdq(graph, allInt8(graph), amax, {});
    ASSERT_TRUE(placement.isOk()) << placement.status().message();
    const LayerDecision& conv = placement->layers[static_cast<size_t>(*graph.findNode("conv"))];
    EXPECT_EQ(conv.precision, Precision::Fp32);
    EXPECT_EQ(conv.unscaledInput, "x");
}

// A transformer's residual: x -> MatMul -> Add(bias) -> Add(., x). TensorRT fuses the bias into the MatMul, so the
// residual Add fuses with that MatMul and its skip input x gets the Q/DQ (NVIDIA/TensorRT#3243), not the MatMul's
// output.
TEST(QdqPlacementTest, TheResidualAfterAMatMulsBiasAddQuantizesTheSkipInput) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 4, 8});
    b.initializer("w", {8, 8}, test::seededFloats(64, 5));
    b.initializer("bias", {8}, test::seededFloats(8, 6));
    b.node("MatMul", {"x", "w"}, {"m"}, "proj");
    b.node("Add", {"m", "bias"}, {"mb"}, "proj_bias");
    b.node("Add", {"mb", "x"}, {"y"}, "residual");
    b.output("y");
    const auto model = b.load();
    const Graph& graph = model->graph();
    auto placement = placeQdq(graph, allInt8(graph), {{"x", 0.8f}, {"m", 1.5f}, {"mb", 1.6f}, {"y", 2.0f}}, {});
    ASSERT_TRUE(placement.isOk()) << placement.status().message();
    const NodeId residual = *graph.findNode("residual");
    const auto skip = std::find_if(placement->edges.begin(), placement->edges.end(),
                                   [&](const QdqEdge& e) { return e.consumer == residual; });
    ASSERT_NE(skip, placement->edges.end());
    EXPECT_EQ(graph.value(skip->tensor).name, "x");
    EXPECT_NE(placement->layers[static_cast<size_t>(residual)].reason.find("fused with 'proj'"), std::string::npos)
        << placement->layers[static_cast<size_t>(residual)].reason;
}

// BlazeFace's block: the pooled tensor feeds a conv, and, padded with zero channels (Concat with ConstantOfShape), the
// residual Add. x -> conv0 -> relu -> pool -> p; p -> conv1 -> c1; Add(c1, Concat(p, zeros)) -> y.
ModelBuilder paddedIdentityModel() {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 4, 8, 8});
    b.initializer("w0", {4, 4, 1, 1}, test::seededFloats(16, 3));
    b.initializer("w1", {8, 4, 1, 1}, test::seededFloats(32, 4));
    b.initializer("shape", DataType::Int64, {4}, {1, 4, 4, 4});
    b.node("Conv", {"x", "w0"}, {"c0"}, "conv0");
    b.node("Relu", {"c0"}, {"r"}, "relu");
    b.node("MaxPool", {"r"}, {"p"}, "pool").ints("kernel_shape", {2, 2}).ints("strides", {2, 2});
    b.node("Conv", {"p", "w1"}, {"c1"}, "conv1");
    b.node("ConstantOfShape", {"shape"}, {"z"}, "zeros");
    b.node("Concat", {"p", "z"}, {"pad"}, "concat").i("axis", 1);
    b.node("Add", {"c1", "pad"}, {"y"}, "add");
    b.output("y");
    return b;
}

// The Concat comes before the Add that quantizes its output: it is placed after it, so it runs INT8 with its inputs
// quantized (before, it found no Q/DQ on its output yet and stayed float, TensorRT then requantizing it anyway); the
// pooled tensor and the pool's own input share the Concat's scale, so no requantize sits at the MaxPool.
TEST(QdqPlacementTest, AConcatReadByAResidualAddSharesOneScaleBackThroughTheMaxPool) {
    const auto model = paddedIdentityModel().load();
    const Graph& graph = model->graph();
    const AmaxByName amax = {{"x", 1.0f}, {"c0", 2.2f}, {"r", 2.0f}, {"p", 1.8f}, {"c1", 3.0f}, {"pad", 2.5f}};
    auto placement = placeQdq(graph, allInt8(graph), amax, {});
    ASSERT_TRUE(placement.isOk()) << placement.status().message();
    const LayerDecision& concat = placement->layers[static_cast<size_t>(*graph.findNode("concat"))];
    EXPECT_EQ(concat.precision, Precision::Int8);
    EXPECT_EQ(concat.reason, "INT8 Concat: inputs share one scale");
    const std::vector<float> shared = {2.5f / 127.0f};
    const auto edges = namedEdges(graph, *placement);
    for (const NamedEdge& wanted :
         {NamedEdge{"concat", 0, "p", false, 1, shared}, NamedEdge{"pool", 0, "r", false, 1, shared},
          NamedEdge{"conv1", 0, "p", false, 1, shared}, NamedEdge{"add", 1, "pad", false, 1, shared}})
        EXPECT_NE(std::find(edges.begin(), edges.end(), wanted), edges.end()) << std::get<0>(wanted);
}

// An INT8 MaxPool after a float layer gets Q/DQ on its input (its own) and on its output (for the INT8 conv after
// it): one scale for both, or TensorRT requantizes between them. Before, under a plan with ISNet's Relus FP32 and its
// MaxPools INT8, the export wrote 0.1755 before and 0.1855 after each pool (trt-requantize x7 on the file).
TEST(QdqPlacementTest, AnInt8MaxPoolAfterAFloatLayerKeepsOneScale) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 4, 8, 8});
    b.node("Relu", {"x"}, {"r"}, "relu");
    b.node("MaxPool", {"r"}, {"p"}, "pool").ints("kernel_shape", {2, 2}).ints("strides", {2, 2});
    b.initializer("w", {4, 4, 1, 1}, test::seededFloats(16, 3));
    b.node("Conv", {"p", "w"}, {"y"}, "conv");
    b.output("y");
    const auto model = b.load();
    const Graph& graph = model->graph();
    PrecisionByName precisions = allInt8(graph);
    precisions["relu"] = Precision::Fp32;
    const AmaxByName amax = {{"x", 1.0f}, {"r", 1.0f}, {"p", 0.9f}};
    auto placement = placeQdq(graph, precisions, amax, {});
    ASSERT_TRUE(placement.isOk()) << placement.status().message();
    const std::vector<float> shared = {1.0f / 127.0f};
    const auto edges = namedEdges(graph, *placement);
    for (const NamedEdge& wanted :
         {NamedEdge{"pool", 0, "r", false, 1, shared}, NamedEdge{"conv", 0, "p", false, 1, shared}})
        EXPECT_NE(std::find(edges.begin(), edges.end(), wanted), edges.end()) << std::get<0>(wanted);
}

// The default plan puts that Concat in INT8: its zero channels are computed from constants (an initializer of the
// export), not a float neighbour; and every target's realized plan keeps it there, so the export summary says what
// TensorRT runs.
TEST(QdqPlacementTest, AConcatWithAConstantInputBetweenInt8LayersIsPlannedAndRunInt8) {
    const auto model = paddedIdentityModel().load();
    const Graph& graph = model->graph();
    const NodeId concat = *graph.findNode("concat");
    EXPECT_EQ(defaultPrecisionPlan(graph).requested(concat), Precision::Int8);
    for (TrtVersion version : {TrtVersion::Trt86, TrtVersion::Trt10, TrtVersion::Trt11}) {
        PrecisionPlan plan = defaultPrecisionPlan(graph);
        const TrtPolicies policies(version, Precision::Fp16, nullptr);
        policies.apply(graph, plan);
        EXPECT_EQ(plan.effective(concat), Precision::Int8) << trtVersionName(version) << ": " << plan.reason(concat);
    }
}

}  // namespace
}  // namespace ql
