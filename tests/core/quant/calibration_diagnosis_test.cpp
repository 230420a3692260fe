// channelSpread: the numbers of the outlier-channel diagnosis, from per-channel ranges alone (the diagnosis of a
// calibrated model is tested with the calib-* rules, tests/core/lint/rules/); auto's choice is the method the
// diagnosis shows with the highest expected SQNR.
#include "core/quant/calibration_diagnosis.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/data/input_data.h"
#include "core/data/open_data.h"
#include "core/model/model.h"
#include "core/quant/default_placement.h"

namespace ql {
namespace {

// Issue 29 item 8: the window showed another method with a higher SQNR than the one auto chose (auto weighed them on
// the finer histogram the file does not keep; on the sample, 5 of its 7 quantized tensors).
TEST(CalibrationDiagnosis, AutosChoiceIsTheMethodShownWithTheHighestExpectedSqnr) {
    const std::string samples = std::string(QL_SOURCE_DIR) + "/resources/samples/";
    auto model = Model::load(samples + "digits_cnn.onnx");
    ASSERT_TRUE(model.isOk()) << model.status().message();
    const Graph& graph = (*model)->graph();
    auto data = openDataSource(inputSpecs(graph), {{"", samples + "digits_calib.npy", {}}});
    ASSERT_TRUE(data.isOk()) << data.status().message();
    auto calibration = calibrate(graph, **data, *parseCalibrationMethod("auto"));
    ASSERT_TRUE(calibration.isOk()) << calibration.status().message();
    auto diagnosis = diagnoseCalibration(graph, defaultPrecisionPlan(graph), *calibration);
    ASSERT_TRUE(diagnosis.isOk()) << diagnosis.status().message();
    ASSERT_GE(diagnosis->tensors.size(), 5u);
    for (const TensorDiagnosis& tensor : diagnosis->tensors) {
        ASSERT_NE(tensor.best(), nullptr) << tensor.tensor;
        EXPECT_EQ(amaxMethodKey(tensor.method), std::string(amaxMethodKey(tensor.best()->method)))
            << tensor.tensor << ": " << tensor.best()->expected.sqnrDb << " dB shown for the best";
    }
}

TEST(ChannelSpread, OneChannelAThousandTimesTheOthers) {
    std::vector<float> range(16, 0.5f);
    range[7] = 500.0f;
    const std::optional<ChannelSpread> s = channelSpread(range, 1, 500.0f);
    ASSERT_TRUE(s.has_value());
    EXPECT_EQ(s->axis, 1);
    EXPECT_EQ(s->channels, 16);
    EXPECT_FLOAT_EQ(s->median, 0.5f);
    EXPECT_FLOAT_EQ(s->largest, 500.0f);
    EXPECT_DOUBLE_EQ(s->ratio, 1000.0);
    EXPECT_EQ(s->outliers, (std::vector<int64_t>{7}));
    EXPECT_EQ(s->outlierCount, 1);
    EXPECT_EQ(s->clippedChannels, 0);
    EXPECT_NEAR(s->medianSteps, 0.127, 1e-6);
    // 0.127 steps: every value of the median channel rounds to 0, so all of its 48.1 dB are lost.
    EXPECT_NEAR(ownScaleSqnrDb(), 48.1, 0.05);
    EXPECT_NEAR(s->sqnrLossDb, ownScaleSqnrDb(), 1e-9);
}

TEST(ChannelSpread, TheLossIsTheStepRatioWhileTheMedianChannelKeepsSteps) {
    std::vector<float> range = {1.0f, 1.0f, 1.0f, 10.0f};  // median (lower middle) 1, amax 10: 12.7 steps
    const std::optional<ChannelSpread> s = channelSpread(range, 1, 10.0f);
    ASSERT_TRUE(s.has_value());
    EXPECT_DOUBLE_EQ(s->ratio, 10.0);
    EXPECT_TRUE(s->outliers.empty());  // 10x is below the outlier threshold
    EXPECT_NEAR(s->sqnrLossDb, 20.0, 1e-9);
}

TEST(ChannelSpread, ClippedChannelsAndDeadChannels) {
    // Two zero channels (dead after a Relu) stay out of the median; an amax below the outliers clips them.
    std::vector<float> range = {0.0f, 2.0f, 0.0f, 300.0f, 2.0f, 250.0f, 2.0f};
    const std::optional<ChannelSpread> s = channelSpread(range, 1, 4.0f);
    ASSERT_TRUE(s.has_value());
    EXPECT_EQ(s->deadChannels, 2);
    EXPECT_FLOAT_EQ(s->median, 2.0f);
    EXPECT_EQ(s->outliers, (std::vector<int64_t>{3, 5}));  // largest first
    EXPECT_EQ(s->clippedChannels, 2);
    EXPECT_NEAR(s->sqnrLossDb, 20.0 * std::log10(2.0), 1e-6);
}

TEST(ChannelSpread, FewerThanTwoLiveChannelsHaveNoSpread) {
    EXPECT_FALSE(channelSpread({}, 1, 1.0f).has_value());
    EXPECT_FALSE(channelSpread({0.0f, 3.0f, 0.0f}, 1, 3.0f).has_value());
    // amax 0 (never happens with live channels, but a file may say so): no division by it.
    const std::optional<ChannelSpread> s = channelSpread({1.0f, 2.0f}, 1, 0.0f);
    ASSERT_TRUE(s.has_value());
    EXPECT_EQ(s->sqnrLossDb, 0.0);
}

}  // namespace
}  // namespace ql
