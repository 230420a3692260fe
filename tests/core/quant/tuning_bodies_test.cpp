// tune() inside If/Loop/Scan bodies (tuning_units.h): the layers of planned bodies are units, ranked by their effect on
// the model's outputs, fall back and come back like the main graph's, and are named by path in the report.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/model/subgraph_model.h"
#include "core/quant/tuning.h"
#include "core/quant/tuning_evaluator.h"
#include "core/quant/tuning_report.h"
#include "tests/support/body_tune_fixture.h"
#include "tests/support/control_flow_model.h"

namespace ql {
namespace {

using test::bodiesPlanned;
using test::plantedInBody;

SubgraphModel bodyOf(const Graph& graph, const std::string& node, const std::string& attribute) {
    auto body = buildSubgraphModel(graph, graph.node(*graph.findNode(node)), attribute);
    EXPECT_TRUE(body) << body.status().message();
    return std::move(body).value();
}

const TuneUnit* unitNamed(const std::vector<TuneUnit>& units, const std::string& name) {
    for (const TuneUnit& u : units)
        if (u.name == name) return &u;
    return nullptr;
}

TEST(TuneBodies, ABodyLayerThatCostsTheOutputsMostFallsBackFirstNamedByItsPath) {
    const auto model = test::convBranchesModel();
    const Graph& graph = model->graph();
    const auto report = test::tuneBodies(graph, "output-sqnr>=45");
    ASSERT_TRUE(report) << report.status().message();
    // The units: the main graph's and the planned bodies' (not the then_branch's: it has no plan).
    for (const char* name : {"stem", "head", "refine/body/l1", "route/else_branch/e1"})
        EXPECT_NE(unitNamed(report->units, name), nullptr) << name;
    for (const TuneUnit& u : report->units) EXPECT_FALSE(u.name.starts_with("route/then_branch/")) << u.name;
    const TuneUnit& worst = report->units.front();
    EXPECT_EQ(worst.name, "refine/body/l1");
    EXPECT_EQ(worst.body, (BodyPath{{"refine", "body"}}));
    EXPECT_EQ(worst.nodeNames,
              (std::vector<std::string>{"refine/body/l1", "refine/body/l1.relu", "refine/body/l.add"}));
    EXPECT_LT(worst.outputSqnrDb, unitNamed(report->units, "head")->outputSqnrDb);
    // It falls back first, in its body's plan, with the reason; the plan meets the target.
    ASSERT_GE(report->steps.size(), 2u);
    const TuneStep& first = report->steps[1];
    EXPECT_EQ(first.action, TuneStep::Action::Fallback);
    EXPECT_EQ(first.layerName, "refine/body/l1");
    EXPECT_TRUE(first.kept);
    EXPECT_TRUE(report->met);
    const SubgraphModel loop = bodyOf(graph, "refine", "body");
    const PrecisionPlan* body = report->plan.body("refine", "body");
    ASSERT_NE(body, nullptr);
    const NodeId l1 = *loop.graph.findNode("l1"), relu = *loop.graph.findNode("l1.relu");
    EXPECT_EQ(body->effective(l1), Precision::Fp16);
    EXPECT_TRUE(isTuneNote(body->placementNote(l1))) << body->placementNote(l1);
    EXPECT_NE(body->placementNote(relu).find("with refine/body/l1 (fused)"), std::string::npos);
    // Counted and written like the main graph's.
    ASSERT_NE(unitNamed(report->keptOutInBodies, "refine/body/l1"), nullptr);
    const nlohmann::json json = tuneReportToJson(graph, *report);
    EXPECT_EQ(json["steps"][1]["layer"], "refine/body/l1");
    bool written = false;
    for (const auto& k : json["kept_out"]) written |= k["layer"] == "refine/body/l1" && k["precision"] == "fp16";
    EXPECT_TRUE(written) << json["kept_out"].dump();
    EXPECT_EQ(json["sensitivity"]["layers"][0]["nodes"][2], "refine/body/l.add");
}

TEST(TuneBodies, TheBodiesMacsCount) {
    const auto model = test::convBranchesModel();
    const Graph& graph = model->graph();
    const std::vector<BodyGraph> bodies = buildBodyGraphs(graph);
    const PrecisionPlan plan = bodiesPlanned(graph);
    const auto [mainInt8, mainTotal] = int8Macs(graph, plan);
    const auto [int8, total] = int8Macs(graph, plan, bodies);
    const int64_t conv = 8 * 8 * 8 * 8 * 9;  // each body's 8->8 3x3 conv on 8x8
    EXPECT_EQ(total, mainTotal + 4 * conv);  // then: t1, t2; else: e1; the Loop's body: l1
    EXPECT_EQ(int8, mainInt8 + 2 * conv);    // e1 and l1 planned INT8; the then_branch has no plan
}

// The sensitivity of a body's layer comes from a run that recomputes only what follows the control-flow node: it
// must equal a whole run of the same plan.
TEST(TuneBodies, ABodyLayersPartialRunEqualsAWholeRun) {
    const auto model = test::convBranchesModel();
    const Graph& graph = model->graph();
    const CalibrationResult calibration = plantedInBody(graph);
    auto data = test::bodyTuneSamples(graph);
    auto evaluator = TuneEvaluator::create(graph, calibration, *data, {});
    ASSERT_TRUE(evaluator) << evaluator.status().message();
    TuneEvaluator& e = **evaluator;
    const SubgraphModel loop = bodyOf(graph, "refine", "body");
    auto plan = std::make_shared<PrecisionPlan>(graph, Precision::Fp32);
    PrecisionPlan& body = plan->ensureBody("refine", "body", loop.graph);
    body.setRequested(*loop.graph.findNode("l1"), Precision::Int8);
    auto partial = e.isolatedSqnr({{.plan = plan, .from = *graph.findNode("refine")}}, e.batchCount());
    ASSERT_TRUE(partial) << partial.status().message();
    auto whole = e.outputs(*plan, e.batchCount());
    ASSERT_TRUE(whole) << whole.status().message();
    const double wholeDb = outputSqnrDb(e.fp32Outputs(e.batchCount()), *whole);
    EXPECT_LT(wholeDb, 40.0);  // the clipped state costs something
    EXPECT_NEAR((*partial)[0], wholeDb, 1e-9);
}

}  // namespace
}  // namespace ql
