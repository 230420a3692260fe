// calib-outlier-channels on a planted outlier: a Conv whose sixth output channel is 1000 times the others feeds,
// through a Relu, the Conv that quantizes it. The diagnosis names that channel with its ratio and the SQNR the
// per-tensor scale costs the median channel; the same model without the outlier stays silent.
#include <gtest/gtest.h>

#include "core/data/input_data.h"
#include "core/lint/linter.h"
#include "core/quant/calibration.h"
#include "core/quant/calibration_diagnosis.h"
#include "core/quant/default_placement.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::ModelBuilder;

constexpr int64_t kOutlier = 5;

// image [N, 3, 8, 8] -> Conv "stem" (16 filters alike but for `outlierScale` on channel 5) -> Relu -> act
// -> Conv "head" -> y.
std::unique_ptr<Model> model(float outlierScale) {
    ModelBuilder b;
    b.input("image", DataType::Float, {-1, 3, 8, 8});
    const std::vector<float> filter = test::seededFloats(27, 3);
    std::vector<float> w;
    for (int64_t c = 0; c < 16; ++c)
        for (float f : filter) w.push_back(c == kOutlier ? outlierScale * f : f);
    b.initializer("w1", {16, 3, 3, 3}, w);
    b.initializer("w2", {4, 16, 1, 1}, test::seededFloats(64, 4));
    b.node("Conv", {"image", "w1"}, {"feat"}, "stem").ints("pads", {1, 1, 1, 1});
    b.node("Relu", {"feat"}, {"act"}, "relu");
    b.node("Conv", {"act", "w2"}, {"y"}, "head");
    b.output("y");
    return b.load();
}

CalibrationResult calibrateOn(const Graph& graph, const std::string& method) {
    constexpr int64_t kSamples = 32;
    auto input = ArrayInput::create(
        Tensor::fromVector(DataType::Float, {kSamples, 3, 8, 8}, test::seededFloats(kSamples * 192, 11, -1.0f, 1.0f)),
        inputSpecs(graph).front(), "image.npy");
    EXPECT_TRUE(input.isOk()) << input.status().message();
    MultiInputSource::Inputs inputs;
    inputs.emplace_back("image", std::move(input).value());
    auto data = MultiInputSource::create(std::move(inputs));
    auto result = calibrate(graph, **data, *parseCalibrationMethod(method));
    EXPECT_TRUE(result.isOk()) << result.status().message();
    return std::move(result).value();
}

std::vector<Finding> outlierFindings(const Graph& graph, const CalibrationResult& calibration) {
    const PrecisionPlan plan = defaultPrecisionPlan(graph);
    auto diagnosis = diagnoseCalibration(graph, plan, calibration);
    EXPECT_TRUE(diagnosis.isOk()) << diagnosis.status().message();
    std::vector<Finding> found;
    for (Finding& f : calibrationFindings(graph, plan, *diagnosis, TrtVersion::Trt10))
        if (f.ruleId == "calib-outlier-channels") found.push_back(std::move(f));
    return found;
}

TEST(CalibOutlierChannels, ThePlantedChannelIsReportedWithItsRatioAndTheSqnrLost) {
    const auto m = model(1000.0f);
    const Graph& graph = m->graph();
    const CalibrationResult minmax = calibrateOn(graph, "minmax");
    auto diagnosis = diagnoseCalibration(graph, defaultPrecisionPlan(graph), minmax);
    ASSERT_TRUE(diagnosis.isOk());
    const TensorDiagnosis* act = diagnosis->find("act");
    ASSERT_NE(act, nullptr);
    ASSERT_TRUE(act->channels.has_value());
    const ChannelSpread& s = *act->channels;
    EXPECT_EQ(s.axis, 1);
    EXPECT_EQ(s.channels, 16);
    EXPECT_NEAR(s.ratio, 1000.0, 1.0);
    EXPECT_EQ(s.outliers, (std::vector<int64_t>{kOutlier}));
    EXPECT_EQ(s.clippedChannels, 0);  // minmax: the scale covers the outlier
    EXPECT_LT(s.medianSteps, 0.5);    // so the median channel rounds to 0
    EXPECT_GT(s.sqnrLossDb, 40.0);
    const TensorDiagnosis* image = diagnosis->find("image");  // three channels alike
    ASSERT_TRUE(image && image->channels);
    EXPECT_LT(image->channels->ratio, 2.0);
    const nlohmann::json json = diagnosisToJson(graph, *diagnosis);
    bool written = false;
    for (const nlohmann::json& t : json)
        if (t["tensor"] == "act") written = t["channels"]["outliers"] == nlohmann::json::array({kOutlier});
    EXPECT_TRUE(written) << json.dump();

    const std::vector<Finding> findings = outlierFindings(graph, minmax);
    ASSERT_EQ(findings.size(), 1u);
    const Finding& f = findings.front();
    EXPECT_EQ(f.tensor, "act");
    EXPECT_EQ(f.nodeName, "head");
    EXPECT_EQ(f.severity, Severity::Warning);
    EXPECT_NE(f.message.find("channel 5 (axis 1)"), std::string::npos) << f.message;
    EXPECT_NE(f.message.find("1000x"), std::string::npos) << f.message;
    EXPECT_NE(f.message.find("rounds to 0"), std::string::npos) << f.message;
    // Remedies: the consumer in FP16, or (Conv -> Relu -> Conv) the range moved into both Convs' weights.
    EXPECT_NE(f.fix.find("\"head\": \"fp16\""), std::string::npos) << f.fix;
    EXPECT_NE(f.fix.find("'stem'"), std::string::npos) << f.fix;
    EXPECT_NE(f.fix.find("per-channel scales for weights only"), std::string::npos) << f.fix;
}

TEST(CalibOutlierChannels, AClippingCalibrationReportsTheOutlierClipped) {
    const auto m = model(1000.0f);
    const Graph& graph = m->graph();
    const std::vector<Finding> findings = outlierFindings(graph, calibrateOn(graph, "percentile:99"));
    ASSERT_EQ(findings.size(), 1u);
    EXPECT_NE(findings.front().message.find("1 channel clips"), std::string::npos) << findings.front().message;
}

TEST(CalibOutlierChannels, ChannelsAlikeStaySilent) {
    const auto m = model(1.0f);
    const Graph& graph = m->graph();
    EXPECT_TRUE(outlierFindings(graph, calibrateOn(graph, "minmax")).empty());
    EXPECT_TRUE(outlierFindings(graph, calibrateOn(graph, "auto")).empty());
}

TEST(CalibOutlierChannels, ACalibrationWithoutChannelRangesStaysSilent) {
    const auto m = model(1000.0f);
    const Graph& graph = m->graph();
    CalibrationResult old = calibrateOn(graph, "minmax");
    for (TensorRange& r : old.activations) r.channelAmax.clear();  // as read from a file written before them
    EXPECT_TRUE(outlierFindings(graph, old).empty());
}

// Only the weights carry per-channel scales in TensorRT: with a tensor that is not a weighted layer's output (here
// the graph input, planted through the data), the fix offers FP16 alone.
TEST(CalibOutlierChannels, WithoutAWeightedProducerTheFixIsFp16Alone) {
    const auto m = model(1.0f);
    const Graph& graph = m->graph();
    CalibrationResult calibration = calibrateOn(graph, "minmax");
    for (TensorRange& r : calibration.activations)
        if (r.name == "image") r.channelAmax = {0.001f, 1.0f, 0.001f};
    const std::vector<Finding> findings = outlierFindings(graph, calibration);
    ASSERT_EQ(findings.size(), 1u);
    EXPECT_EQ(findings.front().tensor, "image");
    EXPECT_NE(findings.front().fix.find("\"stem\": \"fp16\""), std::string::npos) << findings.front().fix;
    EXPECT_NE(findings.front().fix.find("no per-channel scale for an activation"), std::string::npos);
}

}  // namespace
}  // namespace ql
