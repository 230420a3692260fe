#include "core/quant/calibration_file.h"

#include <gtest/gtest.h>

#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::ModelBuilder;
using test::TempDir;

std::unique_ptr<Model> convModel() {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 2, 4, 4});
    b.initializer("w", {3, 2, 1, 1}, {0.5f, -1, 2, 0.25f, -0.125f, 0});
    b.node("Conv", {"x", "w"}, {"y"}, "conv");
    b.output("y");
    return b.load();
}

CalibrationResult sample(const Graph& g) {
    CalibrationResult r;
    r.config = *parseCalibrationMethod("percentile:99.9");
    r.samples = 16;
    r.activations = {{.name = "x", .amax = 1.5f, .min = -1.25f, .max = 1.5f},
                     {.name = "y", .amax = 3.0f, .min = -2.0f, .max = 3.0f, .nonFinite = 2, .samples = 4}};
    r.activations[1].amaxByMethod = MethodAmax{3.0f, 2.875f, 2.5f, 2.625f};
    r.activations[1].histogram = Histogram{{0, 5, 1, 0, 7, 0, 0, 2}, 3.0, false};
    r.activations[1].channelAmax = {0.25f, 3.0f, 0.0f};
    r.activations[1].channelAxis = 1;
    auto weights = weightRanges(g);
    EXPECT_TRUE(weights.isOk());
    r.weights = *weights;
    return r;
}

TEST(CalibrationFile, RoundTrips) {
    auto model = convModel();
    const Graph& g = model->graph();
    const CalibrationResult r = sample(g);
    ASSERT_EQ(r.weights.size(), 1u);
    EXPECT_EQ(r.weights[0].amax, (std::vector<float>{1.0f, 2.0f, 0.125f}));
    TempDir dir;
    ASSERT_TRUE(saveCalibration(g, r, dir.file("calib.json")).isOk());
    auto back = loadCalibration(g, dir.file("calib.json"));
    ASSERT_TRUE(back.isOk()) << back.status().message();
    EXPECT_EQ(calibrationMethodName(back->config), "percentile:99.9");
    EXPECT_EQ(back->samples, 16);
    ASSERT_EQ(back->activations.size(), 2u);
    EXPECT_EQ(back->activations[1].name, "y");
    EXPECT_EQ(back->activations[1].amax, 3.0f);
    EXPECT_EQ(back->activations[1].min, -2.0f);
    EXPECT_EQ(back->activations[1].nonFinite, 2);
    EXPECT_EQ(back->activations[1].samples, 4);
    EXPECT_EQ(back->activations[0].samples, 0);  // all of the file's samples
    ASSERT_TRUE(back->activations[1].amaxByMethod.has_value());
    EXPECT_EQ(back->activations[1].amaxByMethod->percentile, 2.875f);
    EXPECT_EQ(back->activations[1].amaxByMethod->entropy, 2.5f);
    EXPECT_EQ(back->activations[1].amaxByMethod->mse, 2.625f);
    EXPECT_EQ(back->activations[1].histogram.counts, r.activations[1].histogram.counts);
    EXPECT_DOUBLE_EQ(back->activations[1].histogram.range, 3.0);
    EXPECT_FALSE(back->activations[1].histogram.absolute);
    EXPECT_FALSE(back->activations[0].amaxByMethod.has_value());  // none given, none written
    EXPECT_EQ(back->activations[0].histogram.bins(), 0u);
    EXPECT_EQ(back->activations[1].channelAmax, r.activations[1].channelAmax);
    EXPECT_EQ(back->activations[1].channelAxis, 1);
    EXPECT_TRUE(back->activations[0].channelAmax.empty());
    ASSERT_EQ(back->weights.size(), 1u);
    EXPECT_EQ(back->weights[0].layer, *g.findNode("conv"));
    EXPECT_EQ(back->weights[0].axis, 0);
    EXPECT_EQ(back->weights[0].amax, r.weights[0].amax);
}

TEST(CalibrationFile, WritesTheScaleOfTheAmax) {
    auto model = convModel();
    const nlohmann::json j = calibrationToJson(model->graph(), sample(model->graph()));
    EXPECT_FLOAT_EQ(j["activations"]["y"]["scale"].get<float>(), 3.0f / 127.0f);
    EXPECT_EQ(j["activations"]["y"]["amax_by_method"]["minmax"].get<float>(), 3.0f);
    EXPECT_EQ(j["activations"]["y"]["histogram"]["counts"].size(), 8u);
    EXPECT_EQ(j["activations"]["y"]["channel_amax"]["axis"], 1);
    EXPECT_EQ(j["activations"]["y"]["channel_amax"]["amax"].size(), 3u);
    EXPECT_FALSE(j["activations"]["x"].contains("channel_amax"));  // none measured, none written
}

TEST(CalibrationFile, ReadsFilesWrittenBeforeHistogramsWereKept) {
    auto model = convModel();
    const nlohmann::json old = {
        {"format", "quantlens-calibration"},
        {"version", 1},
        {"method", "entropy"},
        {"samples", 4},
        {"activations", {{"x", {{"amax", 1.5}, {"min", -1.0}, {"max", 1.5}, {"nonFinite", 0}}}}}};
    auto r = calibrationFromJson(model->graph(), old, "old.json");
    ASSERT_TRUE(r.isOk()) << r.status().message();
    ASSERT_EQ(r->activations.size(), 1u);
    EXPECT_EQ(r->activations[0].amax, 1.5f);
    EXPECT_FALSE(r->activations[0].amaxByMethod.has_value());
    EXPECT_EQ(r->activations[0].histogram.bins(), 0u);
    EXPECT_TRUE(r->activations[0].channelAmax.empty());  // nor channel ranges
}

void expectError(const Graph& g, nlohmann::json j, const std::string& fragment) {
    auto r = calibrationFromJson(g, j, "calib.json");
    ASSERT_FALSE(r.isOk()) << j.dump();
    EXPECT_NE(r.status().message().find("calib.json"), std::string::npos) << r.status().message();
    EXPECT_NE(r.status().message().find(fragment), std::string::npos) << r.status().message();
}

TEST(CalibrationFile, RejectsUnknownNamesAndBadValues) {
    auto model = convModel();
    const Graph& g = model->graph();
    const nlohmann::json good = calibrationToJson(g, sample(g));
    nlohmann::json j = good;
    j["activations"]["z"] = {{"amax", 1.0}};
    expectError(g, j, "tensor 'z'");
    j = good;
    j["activations"]["x"]["amax"] = -1.0;
    expectError(g, j, "negative");
    j = good;
    j["activations"]["x"].erase("amax");
    expectError(g, j, "amax of 'x'");
    j = good;
    j["weights"]["w"]["node"] = "conv9";
    expectError(g, j, "node 'conv9'");
    j = good;
    j["weights"]["w"]["amax"] = {1.0, "a"};
    expectError(g, j, "weight 'w'");
    j = good;
    j["method"] = "kl";
    expectError(g, j, "unknown calibration method 'kl'");
    j = good;
    j["format"] = "quantlens-plan";
    expectError(g, j, "format");
    j = good;
    j["version"] = 7;
    expectError(g, j, "version");
    j = good;
    j["activations"]["y"]["amax_by_method"].erase("mse");
    expectError(g, j, "mse of 'y\" amax_by_method'");
    j = good;
    j["activations"]["y"]["histogram"]["counts"] = {1, 2, 3};
    expectError(g, j, "even");
    j = good;
    j["activations"]["y"]["histogram"]["counts"] = {1, -2};
    expectError(g, j, "non-negative integer");
    j = good;
    j["activations"]["y"]["histogram"]["range"] = -1.0;
    expectError(g, j, "negative range");
    j = good;
    j["activations"]["y"]["nonFinite"] = "many";
    expectError(g, j, "nonFinite");
    j = good;
    j["activations"]["y"]["samples"] = -3;
    expectError(g, j, "not a count");
}

TEST(CalibrationFile, RejectsBadChannelRanges) {
    auto model = convModel();
    const Graph& g = model->graph();
    const auto withChannels = [&](nlohmann::json channels) {
        nlohmann::json j = calibrationToJson(g, sample(g));
        j["activations"]["y"]["channel_amax"] = std::move(channels);
        return j;
    };
    expectError(g, withChannels({{"axis", 1}, {"amax", {1.0, -2.0}}}), "channel_amax");
    expectError(g, withChannels({{"axis", -1}, {"amax", {1.0}}}), "channel_amax");
    expectError(g, withChannels({{"axis", 1}, {"amax", nlohmann::json::array()}}), "channel_amax");
    expectError(g, withChannels("wide"), "channel_amax");
}

TEST(CalibrationFile, LoadReportsUnreadableFiles) {
    auto model = convModel();
    TempDir dir;
    test::writeFile(dir.file("calib.json"), "[1,");
    auto bad = loadCalibration(model->graph(), dir.file("calib.json"));
    ASSERT_FALSE(bad.isOk());
    EXPECT_NE(bad.status().message().find("not valid JSON"), std::string::npos);
    EXPECT_EQ(loadCalibration(model->graph(), dir.file("none.json")).status().code(), StatusCode::IoError);
}

// Found by fuzz_calibration_file: a file without "samples" read json["samples"] of a const object (undefined
// behaviour: a heap use-after-free under ASan). "samples" is optional.
TEST(CalibrationFile, SamplesAreOptional) {
    auto model = convModel();
    nlohmann::json j = calibrationToJson(model->graph(), sample(model->graph()));
    j.erase("samples");
    auto back = calibrationFromJson(model->graph(), j, "calib.json");
    ASSERT_TRUE(back.isOk()) << back.status().message();
    EXPECT_EQ(back->samples, 0);
}

}  // namespace
}  // namespace ql
