// The calib-* rules on real calibrations of a small model: each finding names the tensor and the layer that
// quantizes it, and appears only where its condition holds.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "core/data/input_data.h"
#include "core/lint/linter.h"
#include "core/quant/calibration.h"
#include "core/quant/calibration_diagnosis.h"
#include "core/quant/default_placement.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::ModelBuilder;

// image [N, 1, 4, 4] -> Conv (stem) -> feat -> Relu -> MatMul-free head: Conv (head) -> y.
std::unique_ptr<Model> model() {
    ModelBuilder b;
    b.input("image", DataType::Float, {-1, 1, 4, 4});
    b.initializer("w1", {4, 1, 3, 3}, test::seededFloats(36, 3));
    b.initializer("w2", {2, 4, 1, 1}, test::seededFloats(8, 4));
    b.node("Conv", {"image", "w1"}, {"feat"}, "stem").ints("pads", {1, 1, 1, 1});
    b.node("Relu", {"feat"}, {"act"}, "relu");
    b.node("Conv", {"act", "w2"}, {"y"}, "head");
    b.output("y");
    return b.load();
}

// Normalised "images": 70% background pixels at -0.42, the rest spread up to 2.2; `poison` puts a NaN in each.
std::vector<float> pixels(int64_t samples, bool poison = false) {
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> bright(-0.42f, 2.2f);
    std::bernoulli_distribution background(0.7);
    std::vector<float> v(static_cast<size_t>(samples * 16));
    for (float& x : v) x = background(rng) ? -0.42f : bright(rng);
    if (poison)
        for (int64_t s = 0; s < samples; ++s) v[static_cast<size_t>(s * 16)] = std::numeric_limits<float>::quiet_NaN();
    return v;
}

CalibrationResult calibrateOn(const Graph& graph, std::vector<float> values, const std::string& method) {
    const auto samples = static_cast<int64_t>(values.size() / 16);
    auto input = ArrayInput::create(Tensor::fromVector(DataType::Float, {samples, 1, 4, 4}, values),
                                    inputSpecs(graph).front(), "image.npy");
    EXPECT_TRUE(input.isOk()) << input.status().message();
    MultiInputSource::Inputs inputs;
    inputs.emplace_back("image", std::move(input).value());
    auto data = MultiInputSource::create(std::move(inputs));
    auto config = parseCalibrationMethod(method);
    auto result = calibrate(graph, **data, *config);
    EXPECT_TRUE(result.isOk()) << result.status().message();
    return std::move(result).value();
}

std::vector<Finding> calibFindings(const Graph& graph, const CalibrationResult& calibration,
                                   const PrecisionPlan& plan) {
    auto diagnosis = diagnoseCalibration(graph, plan, calibration);
    EXPECT_TRUE(diagnosis.isOk()) << diagnosis.status().message();
    return calibrationFindings(graph, plan, *diagnosis, TrtVersion::Trt10);
}

// Points into `findings`: a temporary vector would leave it dangling (found by ASan), so rvalues are refused.
const Finding* find(std::vector<Finding>&&, const std::string&, const std::string&) = delete;
const Finding* find(const std::vector<Finding>& findings, const std::string& rule, const std::string& tensor) {
    for (const Finding& f : findings)
        if (f.ruleId == rule && f.tensor == tensor) return &f;
    return nullptr;
}

TEST(CalibClipping, EntropyOnASpikyInputIsFlaggedOnTheInputTensorAndItsLayer) {
    const auto m = model();
    const Graph& graph = m->graph();
    const CalibrationResult entropy = calibrateOn(graph, pixels(64), "entropy");
    const PrecisionPlan plan = defaultPrecisionPlan(graph);
    const std::vector<Finding> findings = calibFindings(graph, entropy, plan);
    const Finding* f = find(findings, "calib-clipping", "image");
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->nodeName, "stem");
    EXPECT_EQ(f->severity, Severity::Warning);
    EXPECT_NE(f->message.find("entropy"), std::string::npos) << f->message;
    EXPECT_NE(f->fix.find("\"image\""), std::string::npos) << f->fix;
    // The diagnosis behind it: entropy clips, another method does better by the rule's margin.
    auto diagnosis = diagnoseCalibration(graph, plan, entropy);
    const TensorDiagnosis* image = diagnosis->find("image");
    ASSERT_NE(image, nullptr);
    ASSERT_TRUE(image->expected.has_value());
    EXPECT_GE(image->expected->clippedFraction, DiagnosisThresholds::kClippedFraction);
    EXPECT_GE(image->best()->expected.sqnrDb - image->expected->sqnrDb, DiagnosisThresholds::kSqnrGapDb);
    EXPECT_EQ(image->methods.size(), 4u);
}

TEST(CalibClipping, AutoOnTheSameDataPicksAnotherMethodAndIsNotFlagged) {
    const auto m = model();
    const Graph& graph = m->graph();
    const CalibrationResult automatic = calibrateOn(graph, pixels(64), "auto");
    const std::vector<Finding> findings = calibFindings(graph, automatic, defaultPrecisionPlan(graph));
    EXPECT_EQ(find(findings, "calib-clipping", "image"), nullptr);
    EXPECT_EQ(find(findings, "calib-method-gap", "image"), nullptr);
    for (const TensorRange& r : automatic.activations) {
        if (r.name == "image") {
            EXPECT_NE(r.method, CalibrationMethod::Entropy);
        }
    }
}

TEST(CalibClipping, APlanOverrideFixesItAndIsReportedAsThePlans) {
    const auto m = model();
    const Graph& graph = m->graph();
    const CalibrationResult entropy = calibrateOn(graph, pixels(64), "entropy");
    PrecisionPlan plan = defaultPrecisionPlan(graph);
    plan.setTensorMethod("image", CalibrationMethod::MinMax);
    const std::vector<Finding> findings = calibFindings(graph, entropy, plan);
    EXPECT_EQ(find(findings, "calib-clipping", "image"), nullptr);
    auto diagnosis = diagnoseCalibration(graph, plan, entropy);
    ASSERT_TRUE(diagnosis.isOk());
    const TensorDiagnosis* image = diagnosis->find("image");
    EXPECT_TRUE(image->methodFromPlan);
    EXPECT_EQ(image->method, CalibrationMethod::MinMax);
    EXPECT_EQ(image->expected->clippedFraction, 0.0);
}

TEST(CalibClipping, OnlyTheTensorsTheInt8LayersQuantizeAreDiagnosed) {
    const auto m = model();
    const Graph& graph = m->graph();
    const CalibrationResult entropy = calibrateOn(graph, pixels(64), "entropy");
    PrecisionPlan plan = defaultPrecisionPlan(graph);
    plan.setRequested(*graph.findNode("stem"), Precision::Fp16);
    auto diagnosis = diagnoseCalibration(graph, plan, entropy);
    ASSERT_TRUE(diagnosis.isOk());
    EXPECT_EQ(diagnosis->find("image"), nullptr);
    EXPECT_NE(diagnosis->find("act"), nullptr);
    const std::vector<Finding> findings = calibFindings(graph, entropy, plan);
    EXPECT_EQ(find(findings, "calib-clipping", "image"), nullptr);
}

TEST(CalibDeadRange, AnAllZeroInputHasAmaxZero) {
    const auto m = model();
    const Graph& graph = m->graph();
    const CalibrationResult zeros = calibrateOn(graph, std::vector<float>(64 * 16, 0.0f), "entropy");
    const std::vector<Finding> findings = calibFindings(graph, zeros, defaultPrecisionPlan(graph));
    const Finding* f = find(findings, "calib-dead-range", "image");
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->nodeName, "stem");
    EXPECT_NE(f->fix.find("stem"), std::string::npos);
}

TEST(CalibNonFinite, NanInTheDataIsReportedWithItsCount) {
    const auto m = model();
    const Graph& graph = m->graph();
    const CalibrationResult poisoned = calibrateOn(graph, pixels(40, true), "entropy");
    const std::vector<Finding> findings = calibFindings(graph, poisoned, defaultPrecisionPlan(graph));
    const Finding* f = find(findings, "calib-non-finite", "image");
    ASSERT_NE(f, nullptr);
    EXPECT_NE(f->message.find("40 NaN"), std::string::npos) << f->message;
}

TEST(CalibFewSamples, ACalibrationOfEightSamplesIsReportedOnce) {
    const auto m = model();
    const Graph& graph = m->graph();
    const std::vector<Finding> few =
        calibFindings(graph, calibrateOn(graph, pixels(8), "minmax"), defaultPrecisionPlan(graph));
    EXPECT_EQ(std::count_if(few.begin(), few.end(), [](const Finding& f) { return f.ruleId == "calib-few-samples"; }),
              1);
    const std::vector<Finding> enough =
        calibFindings(graph, calibrateOn(graph, pixels(64), "minmax"), defaultPrecisionPlan(graph));
    EXPECT_EQ(
        std::count_if(enough.begin(), enough.end(), [](const Finding& f) { return f.ruleId == "calib-few-samples"; }),
        0);
}

TEST(CalibRules, WithoutACalibrationTheyFindNothing) {
    const auto m = model();
    const LintReport report = lint(m->graph(), defaultPrecisionPlan(m->graph()), {});
    for (const Finding& f : report.findings) EXPECT_FALSE(isCalibrationRule(f.ruleId)) << f.ruleId;
}

}  // namespace
}  // namespace ql
