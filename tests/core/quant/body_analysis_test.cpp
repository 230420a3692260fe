// The per-layer error inside If/Loop/Scan bodies (AnalysisReport::bodyLayers, core/quant/body_analysis.h): the layers
// of the bodies a plan quantizes, named by where they are, in both modes, and their JSON form.
#include <gtest/gtest.h>

#include <cmath>

#include "core/data/input_data.h"
#include "core/model/subgraph_model.h"
#include "core/quant/analysis.h"
#include "core/quant/analysis_file.h"
#include "core/quant/default_placement.h"
#include "tests/support/calibration_fixture.h"
#include "tests/support/control_flow_model.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

constexpr int64_t kSamples = 4;
constexpr int64_t kLoopTrips = 2;  // convBranchesModel's Loop

// The Loop's body planned by the default placement (its conv INT8); the If's branches left without a plan.
PrecisionPlan loopPlanned(const Graph& graph) {
    PrecisionPlan plan(graph, Precision::Fp32);
    const Node& loop = graph.node(*graph.findNode("refine"));
    auto body = buildSubgraphModel(graph, loop, "body");
    EXPECT_TRUE(body) << body.status().message();
    plan.ensureBody("refine", "body", body->graph) = defaultPrecisionPlan(body->graph);
    return plan;
}

AnalysisReport analyze(const Graph& graph, const PrecisionPlan& plan, AnalysisMode mode) {
    auto input = ArrayInput::create(Tensor::fromVector(DataType::Float, {kSamples, 4, 8, 8},
                                                       test::seededFloats(kSamples * 4 * 8 * 8, 11, -1.0f, 2.0f)),
                                    inputSpecs(graph).front(), "x.npy");
    EXPECT_TRUE(input) << input.status().message();
    MultiInputSource::Inputs inputs;
    inputs.emplace_back("x", std::move(input).value());
    auto data = std::move(MultiInputSource::create(std::move(inputs))).value();
    AnalysisOptions options;
    options.mode = mode;
    auto report = analyzeQuantization(graph, plan, test::uniformCalibration(graph, {}, 4.0f), *data, options);
    EXPECT_TRUE(report) << report.status().message();
    return report ? std::move(report).value() : AnalysisReport{};
}

const BodyLayerError* bodyLayer(const AnalysisReport& report, const std::string& body, const std::string& node) {
    for (const BodyLayerError& l : report.bodyLayers)
        if (l.body == body && l.node == node) return &l;
    return nullptr;
}

TEST(BodyAnalysis, AccumulatedMeasuresEveryBodyLayerEveryIterationInGraphOrder) {
    const auto model = test::convBranchesModel();
    const Graph& graph = model->graph();
    const AnalysisReport report = analyze(graph, loopPlanned(graph), AnalysisMode::Accumulated);
    const BodyLayerError* l1 = bodyLayer(report, "refine/body/", "l1");
    ASSERT_NE(l1, nullptr);
    EXPECT_EQ(l1->op, "Conv");
    EXPECT_EQ(l1->output, "l1");
    EXPECT_EQ(l1->precision, Precision::Int8);
    EXPECT_TRUE(std::isfinite(l1->metrics.sqnrDb));
    EXPECT_GT(l1->metrics.mse, 0.0);
    EXPECT_EQ(l1->metrics.count, kSamples * kLoopTrips * 8 * 8 * 8);  // each iteration paired with its FP32 twin
    // The taken branch of the unplanned If is measured too, FP32: it runs float on the error it receives.
    bool branch = false;
    for (const BodyLayerError& l : report.bodyLayers) {
        if (!l.body.starts_with("route/")) continue;
        branch = true;
        EXPECT_EQ(l.precision, Precision::Fp32) << l.node;
    }
    EXPECT_TRUE(branch);
    // Graph order: the If's taken branch before the Loop's body, each body's layers in its order.
    std::vector<std::string> loop;
    for (const BodyLayerError& l : report.bodyLayers)
        if (l.body == "refine/body/") loop.push_back(l.node);
    EXPECT_EQ(loop, (std::vector<std::string>{"l1", "l1.relu", "l.add"}));  // l.go passes a bool on
    EXPECT_TRUE(report.bodyLayers.front().body.starts_with("route/"));
}

TEST(BodyAnalysis, AnFp32PlanHasNoErrorInsideBodies) {
    const auto model = test::convBranchesModel();
    const Graph& graph = model->graph();
    const AnalysisReport report = analyze(graph, PrecisionPlan(graph, Precision::Fp32), AnalysisMode::Accumulated);
    ASSERT_FALSE(report.bodyLayers.empty());
    for (const BodyLayerError& l : report.bodyLayers) EXPECT_EQ(l.metrics.mse, 0.0) << l.body << l.node;
}

// Isolated: the planned body's quantized layers alone, on the FP32 state the Loop carries: less error than with the
// upstream error the accumulated run carries in, none for an unplanned body.
TEST(BodyAnalysis, IsolatedMeasuresThePlannedBodysQuantizedLayersAlone) {
    const auto model = test::convBranchesModel();
    const Graph& graph = model->graph();
    PrecisionPlan plan = loopPlanned(graph);
    plan.setRequested(*graph.findNode("stem"), Precision::Int8);  // upstream error for the accumulated run
    const AnalysisReport isolated = analyze(graph, plan, AnalysisMode::Isolated);
    const AnalysisReport accumulated = analyze(graph, plan, AnalysisMode::Accumulated);
    ASSERT_FALSE(isolated.bodyLayers.empty());
    for (const BodyLayerError& l : isolated.bodyLayers) {
        EXPECT_EQ(l.body, "refine/body/");
        EXPECT_NE(l.precision, Precision::Fp32) << l.node;
    }
    const BodyLayerError* alone = bodyLayer(isolated, "refine/body/", "l1");
    const BodyLayerError* within = bodyLayer(accumulated, "refine/body/", "l1");
    ASSERT_NE(alone, nullptr);
    ASSERT_NE(within, nullptr);
    EXPECT_EQ(alone->metrics.count, within->metrics.count);
    EXPECT_GT(alone->metrics.mse, 0.0);
    EXPECT_LT(alone->metrics.mse, within->metrics.mse);
}

TEST(BodyAnalysis, BodyLayersGoThroughTheJsonForm) {
    const auto model = test::convBranchesModel();
    const Graph& graph = model->graph();
    const AnalysisReport report = analyze(graph, loopPlanned(graph), AnalysisMode::Accumulated);
    const nlohmann::json json = analysisToJson(graph, report);
    ASSERT_TRUE(json.contains("body_layers"));
    EXPECT_EQ(json["body_layers"].size(), report.bodyLayers.size());
    auto read = analysisFromJson(graph, json, "analysis.json");
    ASSERT_TRUE(read) << read.status().message();
    ASSERT_EQ(read->bodyLayers.size(), report.bodyLayers.size());
    const BodyLayerError* l1 = bodyLayer(*read, "refine/body/", "l1");
    ASSERT_NE(l1, nullptr);
    EXPECT_EQ(l1->precision, Precision::Int8);
    EXPECT_NEAR(l1->metrics.sqnrDb, bodyLayer(report, "refine/body/", "l1")->metrics.sqnrDb, 1e-9);

    nlohmann::json bad = json;
    bad["body_layers"][0]["precision"] = "int4";
    auto refused = analysisFromJson(graph, bad, "analysis.json");
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.status().message().find("analysis.json: analysis body layer"), std::string::npos)
        << refused.status().message();
}

}  // namespace
}  // namespace ql
