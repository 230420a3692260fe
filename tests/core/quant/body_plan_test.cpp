// Plans of If/Loop/Scan bodies (PrecisionPlan::bodies): their file form, the calibration a body sees, the TensorRT
// policies applied inside them, and lint's coverage of them. The export and the simulation of planned bodies are
// checked against each other by the round-trip property test (tests/core/export/round_trip_property_test.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/export/effective_plan.h"
#include "core/lint/lint_context.h"
#include "core/lint/lint_report.h"
#include "core/lint/linter.h"
#include "core/model/subgraph_model.h"
#include "core/quant/body_calibration.h"
#include "core/quant/default_placement.h"
#include "core/quant/precision_plan.h"
#include "tests/support/calibration_fixture.h"
#include "tests/support/control_flow_model.h"

namespace ql {
namespace {

SubgraphModel body(const Graph& graph, const std::string& node, const std::string& attribute) {
    auto built = buildSubgraphModel(graph, graph.node(*graph.findNode(node)), attribute);
    EXPECT_TRUE(built) << built.status().message();
    return std::move(built).value();
}

// The If's then_branch and the Loop's body planned INT8 where the default placement would place them.
PrecisionPlan plannedBodies(const Graph& graph) {
    PrecisionPlan plan = defaultPrecisionPlan(graph);
    for (const auto& [node, attribute] : {std::pair{"route", "then_branch"}, std::pair{"refine", "body"}}) {
        const SubgraphModel inner = body(graph, node, attribute);
        plan.ensureBody(node, attribute, inner.graph) = defaultPrecisionPlan(inner.graph);
    }
    return plan;
}

Precision effectiveIn(const PrecisionPlan& plan, const Graph& graph, const std::string& node,
                      const std::string& attribute, const std::string& layer) {
    const PrecisionPlan* planned = plan.body(node, attribute);
    EXPECT_NE(planned, nullptr) << node << "/" << attribute;
    if (planned == nullptr) return Precision::Fp32;
    return planned->effective(*body(graph, node, attribute).graph.findNode(layer));
}

TEST(BodyPlan, TheDefaultPlacementPlansNoBody) {
    auto model = test::convBranchesModel();
    EXPECT_TRUE(defaultPrecisionPlan(model->graph()).bodies().empty());
}

TEST(BodyPlan, FileFormNestsBodiesUnderTheirNodeAndAttributeAndReadsBack) {
    auto model = test::convBranchesModel();
    const Graph& graph = model->graph();
    const nlohmann::json json = plannedBodies(graph).toJson(graph);
    ASSERT_TRUE(json.contains("bodies"));
    EXPECT_EQ(json["bodies"]["route"]["then_branch"]["nodes"]["t1"], "int8");
    EXPECT_EQ(json["bodies"]["refine"]["body"]["nodes"]["l1"], "int8");
    EXPECT_FALSE(json["bodies"]["route"].contains("else_branch"));
    EXPECT_FALSE(json["bodies"]["route"]["then_branch"].contains("format"));

    auto read = PrecisionPlan::fromJson(graph, json, "PLAN.json");
    ASSERT_TRUE(read) << read.status().message();
    ASSERT_EQ(read->bodies().size(), 2u);
    const SubgraphModel then = body(graph, "route", "then_branch");
    EXPECT_EQ(read->body("route", "then_branch")->requested(*then.graph.findNode("t1")), Precision::Int8);
    EXPECT_EQ(read->body("route", "else_branch"), nullptr);
    EXPECT_EQ(read->toJson(graph), json);
}

TEST(BodyPlan, ABodyIsReadLikeAPlanUnlistedNodesGetItsDefaultElseTheDefaultPlacement) {
    auto model = test::convBranchesModel();
    const Graph& graph = model->graph();
    nlohmann::json json = {{"format", "quantlens-plan"}, {"version", 1}, {"nodes", nlohmann::json::object()}};
    json["bodies"]["route"]["else_branch"] = {{"default", "fp32"}, {"nodes", {{"e1", "INT8"}}}};
    json["bodies"]["route"]["then_branch"] = nlohmann::json::object();
    auto read = PrecisionPlan::fromJson(graph, json, "PLAN.json");
    ASSERT_TRUE(read) << read.status().message();
    const SubgraphModel otherwise = body(graph, "route", "else_branch");
    const PrecisionPlan* planned = read->body("route", "else_branch");
    ASSERT_NE(planned, nullptr);
    EXPECT_EQ(planned->requested(*otherwise.graph.findNode("e1")), Precision::Int8);
    EXPECT_EQ(planned->requested(*otherwise.graph.findNode("e.add")), Precision::Fp32);
    const SubgraphModel then = body(graph, "route", "then_branch");
    const PrecisionPlan* placed = read->body("route", "then_branch");
    ASSERT_NE(placed, nullptr);
    const PrecisionPlan placement = defaultPrecisionPlan(then.graph);
    for (const Node& node : then.graph.nodes())
        EXPECT_EQ(placed->requested(node.id), placement.requested(node.id)) << node.name;
    EXPECT_EQ(placed->requested(*then.graph.findNode("t1")), Precision::Int8);
    EXPECT_EQ(read->body("refine", "body"), nullptr);  // not listed: not planned, it runs float
}

TEST(BodyPlan, BadBodiesAreErrorsThatSayWhere) {
    auto model = test::convBranchesModel();
    const Graph& graph = model->graph();
    const auto errorOf = [&](const nlohmann::json& bodies) {
        nlohmann::json json = {{"format", "quantlens-plan"}, {"version", 1}, {"nodes", nlohmann::json::object()}};
        json["bodies"] = bodies;
        auto read = PrecisionPlan::fromJson(graph, json, "PLAN.json");
        EXPECT_FALSE(read);
        return read ? std::string() : read.status().message();
    };
    EXPECT_NE(errorOf({{"nowhere", {{"body", {}}}}}).find("'nowhere'"), std::string::npos);
    const std::string attribute = errorOf({{"route", {{"body", nlohmann::json::object()}}}});
    EXPECT_NE(attribute.find("route"), std::string::npos) << attribute;
    EXPECT_NE(attribute.find("body"), std::string::npos) << attribute;
    const std::string node = errorOf({{"route", {{"then_branch", {{"nodes", {{"ghost", "int8"}}}}}}}});
    EXPECT_NE(node.find("bodies > route > then_branch"), std::string::npos) << node;
    EXPECT_NE(node.find("'ghost'"), std::string::npos) << node;
    const std::string precision = errorOf({{"route", {{"then_branch", {{"nodes", {{"t1", "int4"}}}}}}}});
    EXPECT_NE(precision.find("t1"), std::string::npos) << precision;
    EXPECT_NE(errorOf({{"route", 3}}).find("route"), std::string::npos);
}

TEST(BodyCalibration, ABodySeesItsOwnTensorsByNameAndWhatItReadsFromOutside) {
    auto model = test::convBranchesModel();
    const Graph& graph = model->graph();
    const CalibrationResult outer =
        test::uniformCalibration(graph, {{"s", 3.0f}, {"route/then_branch/t1", 5.0f}, {"refine/body/l1", 7.0f}});
    const SubgraphModel then = body(graph, "route", "then_branch");
    const CalibrationResult inner = bodyCalibration(outer, then.graph, "route", "then_branch");
    ASSERT_NE(inner.activation("t1"), nullptr);
    EXPECT_FLOAT_EQ(inner.activation("t1")->amax, 5.0f);
    ASSERT_NE(inner.activation("s"), nullptr);  // read from the enclosing graph
    EXPECT_FLOAT_EQ(inner.activation("s")->amax, 3.0f);
    EXPECT_EQ(inner.activation("l1"), nullptr);    // another body's
    EXPECT_EQ(inner.activation("head"), nullptr);  // not read by this body
}

TEST(BodyPolicies, AnInt8BodyLayerWithoutARangeFallsBackWithTheReason) {
    auto model = test::convBranchesModel();
    const Graph& graph = model->graph();
    CalibrationResult calibration = test::uniformCalibration(graph);
    const PrecisionPlan ranged =
        effectivePlan(graph, plannedBodies(graph), TrtVersion::Trt10, Precision::Fp16, &calibration);
    EXPECT_EQ(effectiveIn(ranged, graph, "route", "then_branch", "t2"), Precision::Int8);
    EXPECT_EQ(effectiveIn(ranged, graph, "refine", "body", "l1"), Precision::Int8);

    // The then_branch never ran in calibration: its inner tensors have no range.
    std::erase_if(calibration.subgraphActivations,
                  [](const TensorRange& r) { return r.name.starts_with("route/then_branch/"); });
    const PrecisionPlan unranged =
        effectivePlan(graph, plannedBodies(graph), TrtVersion::Trt10, Precision::Fp16, &calibration);
    EXPECT_EQ(effectiveIn(unranged, graph, "route", "then_branch", "t1"), Precision::Int8);  // reads s: ranged
    EXPECT_NE(effectiveIn(unranged, graph, "route", "then_branch", "t2"), Precision::Int8);
    const SubgraphModel then = body(graph, "route", "then_branch");
    const std::string& reason = unranged.body("route", "then_branch")->reason(*then.graph.findNode("t2"));
    EXPECT_NE(reason.find("t1.relu"), std::string::npos) << reason;
}

// PyTorch keeps the branches' weights in the main graph: the body's layers still see them as constant weights.
TEST(BodyPolicies, WeightsReadFromTheEnclosingGraphAreWeightsInTheBody) {
    auto model = test::outerWeightBranchesModel();
    const Graph& graph = model->graph();
    const CalibrationResult calibration = test::uniformCalibration(graph);
    PrecisionPlan plan = defaultPrecisionPlan(graph);
    for (const char* attribute : {"then_branch", "else_branch"}) {
        const SubgraphModel inner = body(graph, "pick", attribute);
        plan.ensureBody("pick", attribute, inner.graph) = defaultPrecisionPlan(inner.graph);
    }
    const PrecisionPlan effective = effectivePlan(graph, plan, TrtVersion::Trt10, Precision::Fp16, &calibration);
    EXPECT_EQ(effectiveIn(effective, graph, "pick", "then_branch", "a"), Precision::Int8)
        << effective.body("pick", "then_branch")->reason(0);
    EXPECT_EQ(effectiveIn(effective, graph, "pick", "else_branch", "b"), Precision::Int8);
    EXPECT_EQ(lint(graph, effective, {.version = TrtVersion::Trt10}).coverage.int8Layers, 3);  // side, a, b
}

TEST(BodyLint, CoverageCountsThePlannedBodiesLayersAsTheExportDoes) {
    auto model = test::convBranchesModel();
    const Graph& graph = model->graph();
    const CalibrationResult calibration = test::uniformCalibration(graph);
    const PrecisionPlan mainOnly =
        effectivePlan(graph, defaultPrecisionPlan(graph), TrtVersion::Trt10, Precision::Fp16, &calibration);
    const LintReport before = lint(graph, mainOnly, {.version = TrtVersion::Trt10});
    EXPECT_EQ(before.coverage.weightedLayers, 2);  // stem, head
    const PrecisionPlan planned =
        effectivePlan(graph, plannedBodies(graph), TrtVersion::Trt10, Precision::Fp16, &calibration);
    const LintReport after = lint(graph, planned, {.version = TrtVersion::Trt10});
    EXPECT_EQ(after.coverage.weightedLayers, 5);  // and t1, t2, l1
    EXPECT_EQ(after.coverage.int8Layers, before.coverage.int8Layers + 3);
}

// A body layer planned INT8 that runs otherwise (no range: its branch never ran in calibration) is a fallback of the
// coverage, named by its path: "N of M run INT8, K fall back" adds up (the window showed "0 fall back").
TEST(BodyLint, CoverageCountsABodyLayerThatFallsBackNamedByItsPath) {
    auto model = test::convBranchesModel();
    const Graph& graph = model->graph();
    CalibrationResult calibration = test::uniformCalibration(graph);
    std::erase_if(calibration.subgraphActivations,
                  [](const TensorRange& r) { return r.name.starts_with("route/then_branch/"); });
    const PrecisionPlan planned =
        effectivePlan(graph, plannedBodies(graph), TrtVersion::Trt10, Precision::Fp16, &calibration);
    const LintReport report = lint(graph, planned, {.version = TrtVersion::Trt10});
    const auto fallback = std::find_if(report.coverage.fallbacks.begin(), report.coverage.fallbacks.end(),
                                       [](const LayerFallback& fb) { return fb.nodeName == "route/then_branch/t2"; });
    ASSERT_NE(fallback, report.coverage.fallbacks.end());
    EXPECT_EQ(graph.node(fallback->node).name, "route");
    EXPECT_EQ(fallback->opType, "Conv");
    EXPECT_TRUE(fallback->ruleId.empty());  // the plan's decision, not a lint rule's
    EXPECT_EQ(fallback->reason,
              planned.body("route", "then_branch")->reason(*body(graph, "route", "then_branch").graph.findNode("t2")));
    // Every weighted layer planned INT8 either runs INT8 or falls back.
    int plannedInt8 = 0;
    for (const Node& node : graph.nodes())
        plannedInt8 += isWeightedLayer(node) && planned.requested(node.id) == Precision::Int8;
    for (const auto& [node, attribute] : {std::pair{"route", "then_branch"}, std::pair{"refine", "body"}}) {
        const SubgraphModel inner = body(graph, node, attribute);
        for (const Node& layer : inner.graph.nodes())
            plannedInt8 +=
                isWeightedLayer(layer) && planned.body(node, attribute)->requested(layer.id) == Precision::Int8;
    }
    EXPECT_EQ(report.coverage.int8Layers + static_cast<int>(report.coverage.fallbacks.size()), plannedInt8);
    const nlohmann::json json = toJson(report, graph, TrtVersion::Trt10);
    bool listed = false;
    for (const nlohmann::json& entry : json["coverage"]["fallbacks"])
        if (entry["node"] == "route/then_branch/t2") {
            listed = true;
            EXPECT_EQ(entry["op"], "Conv");
            EXPECT_TRUE(entry["rule"].is_null());
        }
    EXPECT_TRUE(listed);
}

}  // namespace
}  // namespace ql
