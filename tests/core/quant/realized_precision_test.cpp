// What the export realizes (realized_precision.h), one case per decision: an INT8 node with nothing to fuse into
// falls back with the reason, a float node TensorRT fuses into an INT8 layer runs INT8, a float16 island breaks the
// fusion, constants are folded, a BatchNormalization runs INT8 only folded into its layer, a residual Add quantizes
// its skip whatever the input order, and reading the written precisions back inverts it.
#include "core/quant/realized_precision.h"

#include <gtest/gtest.h>

#include "core/lint/lint_policy.h"
#include "core/quant/default_placement.h"
#include "core/quant/qdq_placement.h"
#include "tests/support/calibration_fixture.h"
#include "tests/support/model_builder.h"
#include "tests/support/model_zoo.h"

namespace ql {
namespace {

std::unique_ptr<Model> zooModel(const std::string& name) {
    for (const auto& entry : test::modelZoo(false))
        if (entry.name == name) return entry.load();
    ADD_FAILURE() << "no zoo model " << name;
    return nullptr;
}

NodeId id(const Graph& graph, const std::string& name) {
    const auto node = graph.findNode(name);
    EXPECT_TRUE(node) << name;
    return node.value_or(0);
}

// `changes` on the default placement, then the TensorRT policies for 10.x with `typing`.
PrecisionPlan realize(const Graph& graph, const std::map<std::string, Precision>& changes, TrtTyping typing,
                      const CalibrationResult* calibration = nullptr) {
    PrecisionPlan plan = defaultPrecisionPlan(graph);
    for (const auto& [name, precision] : changes) plan.setRequested(id(graph, name), precision);
    const TrtPolicies policies(TrtVersion::Trt10, Precision::Fp16, calibration, typing);
    plan.applyPolicies(graph, policies.list());
    return plan;
}

TEST(RealizedPrecisionTest, AnAddBetweenFp16ConvsRunsFp16AndSaysWhy) {
    auto model = zooModel("residual_skip_first");
    const Graph& graph = model->graph();
    const PrecisionPlan plan = realize(graph, {{"stem", Precision::Fp16}, {"b2", Precision::Fp16}}, TrtTyping::Strong);
    const NodeId add = id(graph, "add");
    EXPECT_EQ(plan.requested(add), Precision::Int8);
    EXPECT_EQ(plan.effective(add), Precision::Fp16);
    EXPECT_NE(plan.reason(add).find("neither input comes from an INT8 layer"), std::string::npos) << plan.reason(add);
    EXPECT_EQ(plan.effective(id(graph, "add.relu")), Precision::Fp16);  // its producer runs FP16
    EXPECT_EQ(plan.effective(id(graph, "b1")), Precision::Int8);        // untouched
}

TEST(RealizedPrecisionTest, AReluPlannedFp32AfterAnInt8ConvRunsInt8UnlessAnFp16IslandKeepsItOut) {
    auto model = zooModel("chain_relu");
    const Graph& graph = model->graph();
    const NodeId relu = id(graph, "c1.relu");
    for (TrtTyping typing : {TrtTyping::Weak, TrtTyping::Strong}) {
        const PrecisionPlan fp32 = realize(graph, {{"c1.relu", Precision::Fp32}}, typing);
        EXPECT_EQ(fp32.effective(relu), Precision::Int8);
        EXPECT_NE(fp32.reason(relu).find("fused into INT8 'c1'"), std::string::npos) << fp32.reason(relu);
    }
    EXPECT_EQ(realize(graph, {{"c1.relu", Precision::Fp16}}, TrtTyping::Strong).effective(relu), Precision::Fp16);
    EXPECT_EQ(realize(graph, {{"c1.relu", Precision::Fp16}}, TrtTyping::Weak).effective(relu), Precision::Int8);
}

TEST(RealizedPrecisionTest, AnOpWithNoInt8FormPlannedInt8FallsBack) {
    auto model = zooModel("chain_relu");
    const Graph& graph = model->graph();
    const PrecisionPlan plan = realize(graph, {{"y", Precision::Int8}}, TrtTyping::Strong);
    const NodeId sigmoid = id(graph, "y");
    EXPECT_EQ(plan.effective(sigmoid), Precision::Fp16);
    EXPECT_NE(plan.reason(sigmoid).find("Sigmoid gets no Q/DQ: TensorRT runs it in float; runs FP16"),
              std::string::npos)
        << plan.reason(sigmoid);
}

TEST(RealizedPrecisionTest, NodesComputedFromConstantsAloneRunFp32AsTheExportFoldsThem) {
    auto model = zooModel("constant_subgraph");
    const Graph& graph = model->graph();
    const PrecisionPlan plan = realize(graph, {}, TrtTyping::Strong);
    for (const char* name : {"cls.expand", "gain"}) {
        EXPECT_EQ(plan.effective(id(graph, name)), Precision::Fp32) << name;
        EXPECT_NE(plan.reason(id(graph, name)).find("folds it"), std::string::npos) << name;
    }
    EXPECT_EQ(plan.effective(id(graph, "scaled")), Precision::Fp16);  // it reads the model's input
}

TEST(RealizedPrecisionTest, ABatchNormalizationAfterAConcatIsNotInt8) {
    auto model = zooModel("dense_block");
    const Graph& graph = model->graph();
    const PrecisionPlan plan = realize(graph, {}, TrtTyping::Strong);
    for (const char* name : {"cat1.bn", "cat1", "cat2", "cat2.bn"})
        EXPECT_NE(plan.effective(id(graph, name)), Precision::Int8)
            << name << ": " << plan.explanation(id(graph, name));
    EXPECT_EQ(plan.effective(id(graph, "c2")), Precision::Int8);
}

TEST(RealizedPrecisionTest, TheResidualAddQuantizesItsSkipWhateverTheInputOrder) {
    for (const char* name : {"residual_skip_first", "residual_skip_second"}) {
        auto model = zooModel(name);
        const Graph& graph = model->graph();
        const PrecisionPlan plan = realize(graph, {}, TrtTyping::Strong);
        const auto calibration = test::uniformCalibration(graph);
        auto placement =
            placeQdq(graph, effectivePrecisions(graph, plan), activationAmax(calibration, plan).value(), QdqOptions{});
        ASSERT_TRUE(placement) << placement.status().message();
        int addEdges = 0;
        for (const QdqEdge& edge : placement->edges) {
            if (edge.consumer != id(graph, "add")) continue;
            ++addEdges;
            EXPECT_EQ(graph.value(edge.tensor).name, "stem.relu") << name;  // the skip, read by the branch too
        }
        EXPECT_EQ(addEdges, 1) << name;
    }
}

TEST(RealizedPrecisionTest, AnInt8LayerWithoutACalibratedInputFallsBackWithTheTensor) {
    auto model = zooModel("chain_relu");
    const Graph& graph = model->graph();
    CalibrationResult calibration = test::uniformCalibration(graph);
    std::erase_if(calibration.activations, [](const TensorRange& r) { return r.name == "c1.relu"; });
    const PrecisionPlan plan = realize(graph, {}, TrtTyping::Strong, &calibration);
    EXPECT_EQ(plan.effective(id(graph, "c2")), Precision::Fp16);
    EXPECT_NE(plan.reason(id(graph, "c2")).find("'c1.relu'"), std::string::npos) << plan.reason(id(graph, "c2"));
    EXPECT_EQ(plan.effective(id(graph, "c2.relu")), Precision::Fp16);  // fused into c2, which fell back
}

TEST(RealizedPrecisionTest, WrittenPrecisionsInvertTheRealization) {
    auto model = zooModel("inverted_residual");
    const Graph& graph = model->graph();
    const PrecisionPlan plan = realize(graph, {{"blk0.dw", Precision::Fp16}}, TrtTyping::Strong);
    const auto calibration = test::uniformCalibration(graph);
    auto placement =
        placeQdq(graph, effectivePrecisions(graph, plan), activationAmax(calibration, plan).value(), QdqOptions{});
    ASSERT_TRUE(placement);
    std::vector<bool> quantized(graph.nodes().size(), false), fp16(graph.nodes().size(), false);
    for (const QdqEdge& edge : placement->edges) quantized[static_cast<size_t>(edge.consumer)] = true;
    for (const Node& node : graph.nodes())
        fp16[static_cast<size_t>(node.id)] = plan.effective(node.id) == Precision::Fp16;
    const PrecisionPlan written = writtenPrecisions(graph, quantized, fp16, true);
    for (const Node& node : graph.nodes()) {
        if (plan.effective(node.id) == Precision::Fp32 && written.effective(node.id) == Precision::Fp32) continue;
        EXPECT_EQ(precisionName(written.effective(node.id)), std::string(precisionName(plan.effective(node.id))))
            << node.name << ": " << plan.explanation(node.id);
    }
}

}  // namespace
}  // namespace ql
