// Mapping engine layers to ONNX nodes (metadata, then fused names, then tensor names; nothing guessed) and the
// analysis on it: precisions, mismatches with their reasons, coverage. The fixtures in tests/data/engine were
// written by tests/tools/make_engine_report.py for digits_int8.onnx, QuantLens's export of the sample model.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/engine/engine_analysis.h"
#include "core/engine/engine_coverage.h"
#include "core/engine/engine_mapping.h"
#include "core/engine/layer_info_reader.h"
#include "core/engine/profile_reader.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::ModelBuilder;

const std::string kEngineData = std::string(QL_TEST_DATA_DIR) + "/engine/";

std::unique_ptr<Model> digitsModel() {
    auto model = Model::load(kEngineData + "digits_int8.onnx");
    EXPECT_TRUE(model) << model.status().message();
    return model ? std::move(model).value() : nullptr;
}

std::vector<std::string> nodeNames(const Graph& graph, const std::vector<NodeId>& nodes) {
    std::vector<std::string> names;
    for (NodeId n : nodes) names.push_back(graph.node(n).name);
    return names;
}

struct MappingCase {
    const char* file;
    MappingSource source;
};

class DigitsMappingTest : public ::testing::TestWithParam<MappingCase> {};

TEST_P(DigitsMappingTest, MapsEveryComputeNode) {
    const auto model = digitsModel();
    ASSERT_TRUE(model);
    const auto report = readLayerInfo(kEngineData + GetParam().file);
    ASSERT_TRUE(report) << report.status().message();
    const EngineMapping mapping = mapEngineToModel(*report, &model->graph());
    EXPECT_TRUE(mapping.unmappedNodes.empty()) << nodeNames(model->graph(), mapping.unmappedNodes).front();
    EXPECT_TRUE(mapping.unmappedLayers.empty());
    for (size_t i = 0; i < report->layers.size(); ++i) {
        if (!report->layers[i].isReformat()) {
            EXPECT_EQ(mapping.layers[i].source, GetParam().source) << i;
        }
    }
    // The stem conv and its Relu share a layer.
    const NodeId conv = *model->graph().findNode("/stem/stem.0/Conv");
    const NodeId relu = *model->graph().findNode("/stem/stem.2/Relu");
    ASSERT_EQ(mapping.nodeLayers[static_cast<size_t>(conv)].size(), 1u);
    EXPECT_EQ(mapping.nodeLayers[static_cast<size_t>(conv)], mapping.nodeLayers[static_cast<size_t>(relu)]);
}

INSTANTIATE_TEST_SUITE_P(Schemas, DigitsMappingTest,
                         ::testing::Values(MappingCase{"digits_int8.layers.json", MappingSource::Metadata},
                                           MappingCase{"digits_int8.trt86.layers.json", MappingSource::FusedName},
                                           MappingCase{"digits_int8.trt11.layers.json", MappingSource::Metadata}));

TEST(EngineMappingTest, TensorNamesAreTheLastResortAndUnknownLayersAreListed) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 4, 8, 8});
    b.node("Relu", {"x"}, {"r"}, "relu");
    b.node("Sigmoid", {"r"}, {"y"}, "sig");
    b.output("y");
    const auto model = b.load();
    const auto report = layerInfoFromJson(nlohmann::json::parse(R"({"Layers": [
        {"Name": "myelin_fused_0", "LayerType": "kgen", "Outputs": [{"Name": "r", "Format/Datatype": "Half"}]},
        {"Name": "(Unnamed Layer* 3) [Shuffle]", "LayerType": "NoOp", "Outputs": [{"Name": "t", "Format/Datatype": "Half"}]}
    ]})"),
                                          "--layers L");
    ASSERT_TRUE(report) << report.status().message();
    const EngineMapping mapping = mapEngineToModel(*report, &model->graph());
    EXPECT_EQ(mapping.layers[0].source, MappingSource::TensorNames);
    EXPECT_EQ(nodeNames(model->graph(), mapping.layers[0].nodes), std::vector<std::string>{"relu"});
    EXPECT_EQ(mapping.unmappedLayers, std::vector<size_t>{1});
    EXPECT_EQ(nodeNames(model->graph(), mapping.unmappedNodes), std::vector<std::string>{"sig"});
}

TEST(EngineMappingTest, ComputeNodesLeaveOutShapeAndQdqNodes) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 4});
    b.initializer("s", {}, {0.1f});
    b.initializer("z", DataType::Int8, {}, {0});
    b.node("QuantizeLinear", {"x", "s", "z"}, {"q"}, "q");
    b.node("DequantizeLinear", {"q", "s", "z"}, {"dq"}, "dq");
    b.node("Shape", {"dq"}, {"shape"}, "shape");
    b.node("Reshape", {"dq", "shape"}, {"r"}, "reshape");
    b.node("Relu", {"r"}, {"y"}, "relu");
    b.output("y");
    const auto model = b.load();
    const std::vector<bool> compute = computeNodes(model->graph());
    for (const Node& node : model->graph().nodes())
        EXPECT_EQ(compute[static_cast<size_t>(node.id)], node.name == "relu") << node.name;
}

TEST(EngineAnalysisTest, PlantedFp16LayerIsAMismatchWithItsReason) {
    const auto model = digitsModel();
    ASSERT_TRUE(model);
    auto report = readLayerInfo(kEngineData + "digits_int8.layers.json");
    ASSERT_TRUE(report);
    const auto profile = readProfile(kEngineData + "digits_int8.profile.json");
    ASSERT_TRUE(profile);
    ASSERT_TRUE(applyProfile(*report, *profile, "--profile").isOk());
    report->profileFile = "digits_int8.profile.json";
    const auto planned = plannedPrecisions(model->graph(), kEngineData + "digits_int8.onnx", "", TrtVersion::Trt10);
    ASSERT_TRUE(planned) << planned.status().message();
    const EngineMapping mapping = mapEngineToModel(*report, &model->graph());
    const EngineAnalysis analysis = analyzeEngine(*report, mapping, &model->graph(), &*planned);
    std::vector<std::string> precisionMismatches;
    std::vector<std::string> reformatMismatches;
    for (const PrecisionMismatch& m : analysis.mismatches) {
        const std::string& node = model->graph().node(m.node).name;
        if (m.kind == MismatchKind::Precision) {
            precisionMismatches.push_back(node);
            EXPECT_EQ(m.planned, "int8");
            EXPECT_EQ(m.actual, "fp16");
            EXPECT_TRUE(m.reason.starts_with("INT8 planned, FP16 ran: ")) << m.reason;
        } else {
            reformatMismatches.push_back(node);
            EXPECT_TRUE(m.reason.starts_with("Q/DQ not fused: extra reformat")) << m.reason;
        }
    }
    // The planted FP16 layer holds the block's second conv, the residual Add and the Relu after it.
    EXPECT_EQ(precisionMismatches, (std::vector<std::string>{"/block/block.3/Conv", "/Add", "/Relu"}));
    EXPECT_EQ(reformatMismatches, std::vector<std::string>{"/down/down.0/Conv"});
    EXPECT_TRUE(analysis.hasPlannedInt8NotRun());
    ASSERT_TRUE(analysis.coverage.byTime);
    ASSERT_TRUE(analysis.coverage.byMacs);
    EXPECT_LT(*analysis.coverage.byMacs, 1.0);
    EXPECT_GT(*analysis.coverage.byMacs, 0.0);
    EXPECT_FALSE(analysis.topLayers.empty());
    // Node times add up to the time of the layers holding compute nodes.
    double nodes = 0.0;
    for (const NodeRun& run : analysis.nodes) nodes += run.timeMs.value_or(0.0);
    double layers = 0.0;
    for (size_t i = 0; i < report->layers.size(); ++i)
        if (!report->layers[i].isReformat()) layers += report->layers[i].timeMs.value_or(0.0);
    EXPECT_NEAR(nodes, layers, 1e-9);
}

// The report of the model it was built from maps whole; read against another model almost nothing maps, and that
// must not read as "0 differences from the plan".
TEST(EngineCoverageTest, AReportOfAnotherModelIsToldApart) {
    auto report = readLayerInfo(kEngineData + "digits_int8.layers.json");
    ASSERT_TRUE(report);
    const auto digits = digitsModel();
    ASSERT_TRUE(digits);
    const MappingCoverage own = mappingCoverage(*report, mapEngineToModel(*report, &digits->graph()), digits->graph());
    EXPECT_EQ(own.mappedNodes, own.computeNodes);
    EXPECT_GT(own.computeNodes, 5u);
    EXPECT_EQ(own.mappedLayers, own.layers);
    EXPECT_FALSE(own.likelyOtherModel());
    EXPECT_EQ(otherModelWarning(own), "");

    ModelBuilder b;  // another model: a conv and a relu whose names the report never mentions
    b.input("image", DataType::Float, {1, 1, 8, 8});
    b.initializer("w", {4, 1, 3, 3}, test::seededFloats(36, 2));
    b.node("Conv", {"image", "w"}, {"c"}, "other/conv");
    b.node("Relu", {"c"}, {"y"}, "other/relu");
    b.output("y");
    const auto other = b.load();
    const EngineMapping mapping = mapEngineToModel(*report, &other->graph());
    const MappingCoverage c = mappingCoverage(*report, mapping, other->graph());
    EXPECT_EQ(c.computeNodes, 2u);
    EXPECT_LT(c.nodeShare(), kMinMappedShare);
    EXPECT_LT(c.layerShare(), kMinMappedShare);
    EXPECT_TRUE(c.likelyOtherModel());
    const std::string warning = otherModelWarning(c);
    EXPECT_NE(warning.find("probably of another model"), std::string::npos) << warning;
    EXPECT_NE(warning.find("of 2 compute nodes"), std::string::npos) << warning;
}

TEST(EngineCoverageTest, DifferencesAreCountedByKind) {
    std::vector<PrecisionMismatch> mismatches(3);
    mismatches[1].kind = MismatchKind::Reformat;
    const PlanDifferences d = countPlanDifferences(mismatches);
    EXPECT_EQ(d.precision, 2u);
    EXPECT_EQ(d.reformat, 1u);
    EXPECT_EQ(d.total(), 3u);
}

}  // namespace
}  // namespace ql
