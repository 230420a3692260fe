#include "core/quant/analysis_file.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "tests/support/model_builder.h"

namespace ql {
namespace {

std::unique_ptr<Model> twoLayerModel() {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {1, 8});
    b.initializer("w1", {8, 6}, test::seededFloats(48, 3));
    b.node("MatMul", {"x", "w1"}, {"h"}, "fc1");
    b.node("Relu", {"h"}, {"r"}, "relu");
    b.output("r");
    return b.load();
}

AnalysisReport sampleReport(const Graph& graph) {
    AnalysisReport report;
    report.mode = AnalysisMode::Isolated;
    report.samples = 12;
    LayerError fc{
        .node = *graph.findNode("fc1"), .output = *graph.findValue("h"), .precision = Precision::Int8, .metrics = {}};
    fc.metrics = {.sqnrDb = 31.5, .cosine = 0.999, .mse = 1.5e-4, .maxAbs = 0.03, .count = 0};
    LayerError relu{
        .node = *graph.findNode("relu"), .output = *graph.findValue("r"), .precision = Precision::Fp16, .metrics = {}};
    relu.metrics.sqnrDb = std::numeric_limits<double>::infinity();
    report.layers = {fc, relu};
    report.outputs = {
        .samples = 12, .top1Agreement = 0.75, .hasLabels = true, .accuracyFp32 = 0.5, .accuracyQuant = 0.25};
    return report;
}

TEST(AnalysisFile, RoundTripKeepsEveryLayerAndTheOutputMetrics) {
    auto model = twoLayerModel();
    const Graph& graph = model->graph();
    const AnalysisReport report = sampleReport(graph);
    const nlohmann::json json = analysisToJson(graph, report);
    EXPECT_TRUE(json["layers"][1]["sqnr_db"].is_null());  // +inf has no JSON form

    auto back = analysisFromJson(graph, nlohmann::json::parse(json.dump()), "p.qlproj");
    ASSERT_TRUE(back.isOk()) << back.status().message();
    EXPECT_EQ(back->mode, AnalysisMode::Isolated);
    EXPECT_EQ(back->samples, 12);
    ASSERT_EQ(back->layers.size(), 2u);
    EXPECT_EQ(back->layers[0].node, report.layers[0].node);
    EXPECT_EQ(back->layers[0].output, report.layers[0].output);
    EXPECT_EQ(back->layers[0].precision, Precision::Int8);
    EXPECT_DOUBLE_EQ(back->layers[0].metrics.sqnrDb, 31.5);
    EXPECT_DOUBLE_EQ(back->layers[0].metrics.mse, 1.5e-4);
    EXPECT_TRUE(std::isinf(back->layers[1].metrics.sqnrDb));
    EXPECT_EQ(back->layers[1].precision, Precision::Fp16);
    EXPECT_EQ(back->outputs.samples, 12);
    EXPECT_DOUBLE_EQ(back->outputs.top1Agreement, 0.75);
    EXPECT_TRUE(back->outputs.hasLabels);
    EXPECT_DOUBLE_EQ(back->outputs.accuracyQuant, 0.25);
}

TEST(AnalysisFile, RoundTripKeepsEachOutputsErrorAndKind) {
    auto model = twoLayerModel();
    const Graph& graph = model->graph();
    AnalysisReport report = sampleReport(graph);
    OutputError r{.output = *graph.findValue("r"),
                  .kind = OutputKind::Values,
                  .kindWhy = "an embedding",
                  .metrics = {},
                  .agreement = {}};
    r.metrics = {.sqnrDb = 12.5, .cosine = 0.98, .mse = 0.1, .maxAbs = 0.4, .count = 0};
    report.outputErrors = {r};
    const nlohmann::json json = analysisToJson(graph, report);
    EXPECT_EQ(json["outputs"]["worst"]["name"], "r");
    EXPECT_EQ(json["outputs"]["kind"], "values");
    EXPECT_FALSE(json["outputs"]["per_output"][0].contains("top1_agreement"));
    auto back = analysisFromJson(graph, nlohmann::json::parse(json.dump()), "p.qlproj");
    ASSERT_TRUE(back.isOk()) << back.status().message();
    ASSERT_EQ(back->outputErrors.size(), 1u);
    EXPECT_EQ(back->outputErrors[0].output, r.output);
    EXPECT_EQ(back->outputErrors[0].kind, OutputKind::Values);
    EXPECT_EQ(back->outputErrors[0].kindWhy, "an embedding");
    EXPECT_DOUBLE_EQ(back->outputErrors[0].metrics.sqnrDb, 12.5);
    EXPECT_DOUBLE_EQ(back->outputErrors[0].metrics.cosine, 0.98);
    EXPECT_EQ(back->outputErrors[0].agreement.samples, 0);
}

TEST(AnalysisFile, UnknownNodeIsAnErrorNamingItAndTheFile) {
    auto model = twoLayerModel();
    nlohmann::json json = analysisToJson(model->graph(), sampleReport(model->graph()));
    json["layers"][0]["node"] = "conv_gone";
    auto back = analysisFromJson(model->graph(), json, "p.qlproj");
    ASSERT_FALSE(back.isOk());
    EXPECT_NE(back.status().message().find("conv_gone"), std::string::npos);
    EXPECT_NE(back.status().message().find("p.qlproj"), std::string::npos);
}

TEST(AnalysisFile, MissingModeOrLayersIsAnError) {
    auto model = twoLayerModel();
    EXPECT_FALSE(analysisFromJson(model->graph(), nlohmann::json{{"layers", nlohmann::json::array()}}, "a").isOk());
    EXPECT_FALSE(analysisFromJson(model->graph(), nlohmann::json{{"mode", "isolated"}}, "a").isOk());
    EXPECT_FALSE(analysisFromJson(model->graph(), nlohmann::json::array(), "a").isOk());
}

}  // namespace
}  // namespace ql
