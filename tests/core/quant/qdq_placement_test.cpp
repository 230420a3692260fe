#include "core/quant/qdq_placement.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <tuple>

#include "core/export/graph_preparation.h"
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

}  // namespace
}  // namespace ql
