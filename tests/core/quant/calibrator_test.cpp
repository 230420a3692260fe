#include "core/quant/calibrator.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>

#include "core/quant/histogram_amax.h"
#include "core/quant/histogram_observer.h"

namespace ql {
namespace {

Tensor floats(const std::vector<float>& values) {
    return Tensor::fromVector(DataType::Float, {static_cast<int64_t>(values.size())}, values);
}

const std::vector<std::string> kMethods = {"minmax", "percentile", "entropy", "mse"};

// amax of `values` (observed in batches of 10000) with the method `name`.
float calibrate(const std::string& name, const std::vector<float>& values) {
    auto config = parseCalibrationMethod(name);
    EXPECT_TRUE(config.isOk()) << config.status().message();
    auto calibrator = makeCalibrator(*config);
    EXPECT_TRUE(calibrator.isOk());
    auto observer = (*calibrator)->makeObserver();
    for (size_t i = 0; i < values.size(); i += 10000)
        observer->observe(floats({values.begin() + i, values.begin() + std::min(values.size(), i + 10000)}));
    auto amax = (*calibrator)->computeAmax(*observer);
    EXPECT_TRUE(amax.isOk());
    return amax.isOk() ? *amax : -1.0f;
}

std::vector<float> gaussianWithOutliers() {
    std::mt19937 rng(7767517);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    std::vector<float> v(100000);
    for (float& x : v) x = normal(rng);
    for (int i = 0; i < 10; ++i) v[i * 9973] = 40.0f + i;  // 0.01 % outliers far out
    return v;
}

TEST(Calibrator, AllZerosGiveZero) {
    for (const auto& m : kMethods) EXPECT_EQ(calibrate(m, std::vector<float>(1000, 0.0f)), 0.0f) << m;
}

TEST(Calibrator, NothingObservedGivesZero) {
    for (const auto& m : kMethods) EXPECT_EQ(calibrate(m, {}), 0.0f) << m;
}

TEST(Calibrator, OneValueGivesThatValue) {
    for (const auto& m : kMethods) {
        // mse takes bin centres: at most half a bin (3 / 4096) below.
        EXPECT_NEAR(calibrate(m, std::vector<float>(500, -3.0f)), 3.0f, 3.0 / 4096 + 1e-6) << m;
    }
}

TEST(Calibrator, NegativeOnlyDataUsesMagnitudes) {
    std::vector<float> v;
    for (int i = 0; i < 20000; ++i) v.push_back(-2.0f * static_cast<float>(i + 1) / 20000.0f);
    EXPECT_EQ(calibrate("minmax", v), 2.0f);
    EXPECT_NEAR(calibrate("entropy", v), 2.0f, 2.0 / 2048 + 1e-6);  // uniform: nothing worth clipping
    EXPECT_NEAR(calibrate("percentile:50", v), 1.0f, 2.0 / 2048 + 1e-6);
}

TEST(Calibrator, UniformDataHasKnownPercentiles) {
    std::vector<float> v;
    for (int i = 0; i < 100000; ++i) v.push_back((static_cast<float>(i) + 0.5f) / 100000.0f);
    // Fed in ascending batches, the first batch's range 0.1 doubles four times to 1.6: bins of 1.6 / 2048.
    const double bin = 1.6 / 2048;
    EXPECT_NEAR(calibrate("percentile:99.99", v), 0.9999f, bin);
    EXPECT_NEAR(calibrate("percentile:90", v), 0.9f, bin);
    EXPECT_NEAR(calibrate("percentile:100", v), 1.0f, bin);
    EXPECT_NEAR(calibrate("entropy", v), 1.0f, bin);  // nothing worth clipping, and never past the data
    // For a uniform distribution the MSE optimum clips slightly: rounding error ~ amax^2 / (3 * 127^2 * 4)
    // against clipping error ~ (1 - amax)^3 / 3 gives amax close to 0.997.
    EXPECT_NEAR(calibrate("mse", v), 0.997f, 0.002);
}

TEST(Calibrator, OutliersAreClippedByPercentileAndEntropy) {
    const std::vector<float> v = gaussianWithOutliers();
    EXPECT_EQ(calibrate("minmax", v), 49.0f);
    for (const std::string m : {"percentile:99.9", "entropy"}) {
        const float amax = calibrate(m, v);
        EXPECT_GT(amax, 2.5f) << m;  // keeps the bulk of N(0, 1)
        EXPECT_LT(amax, 6.0f) << m;  // drops the outliers at 40..49
    }
    EXPECT_NEAR(calibrate("percentile:99.9", v), 3.29f, 0.1f);  // the two-sided 99.9 % point of N(0, 1)
    // mse keeps them: clipping ten values by ~40 costs more squared error than rounding the bulk coarsely.
    EXPECT_GT(calibrate("mse", v), 30.0f);
}

TEST(Calibrator, HistogramMethodsMatchTheNumpyReference) {
    // tests/tools/entropy_reference.py computes the same methods with numpy on the histograms it stores.
    std::ifstream in(std::string(QL_TEST_DATA_DIR) + "/quant/entropy_reference.json");
    ASSERT_TRUE(in) << "missing tests/data/quant/entropy_reference.json";
    const nlohmann::json ref = nlohmann::json::parse(in);
    const int startBin = ref["start_bin"], levels = ref["levels"];
    ASSERT_GE(ref["cases"].size(), 5u);
    for (const auto& c : ref["cases"]) {
        Histogram h;
        h.range = c["range"];
        h.counts = c["counts"].get<std::vector<uint64_t>>();
        const double width = h.binWidth();
        const std::string name = c["name"];
        EXPECT_NEAR(entropyAmax(h, startBin, levels), c["entropy_amax"].get<double>(), width * 1e-6) << name;
        EXPECT_NEAR(mseAmax(h, startBin, levels), c["mse_amax"].get<double>(), width * 1e-6) << name;
        EXPECT_NEAR(percentileAmax(h, 99.99), c["percentile_amax"].get<double>(), width * 1e-6) << name;
    }
}

TEST(Calibrator, EntropyClipsASparseTail) {
    // Exponentially decaying counts over 1500 bins and 3 values in the last bin: clipping the tail wins.
    Histogram h;
    h.range = 2048.0;
    h.counts.assign(2048, 0);
    for (size_t i = 0; i < 1500; ++i)
        h.counts[i] = static_cast<uint64_t>(std::llround(1e6 * std::exp(-static_cast<double>(i) / 150.0)));
    h.counts[2047] = 3;
    const double amax = entropyAmax(h, 128, 128);
    EXPECT_DOUBLE_EQ(amax, 1499.0);  // entropy_reference.py's entropy_amax and pytorch-quantization agree
}

TEST(Calibrator, EntropyKeepsAFlatDistributionWhole) {
    // A flat distribution quantizes into 128 levels without loss at any threshold: KL is 0 everywhere and
    // the largest threshold wins.
    Histogram h;
    h.range = 1.0;
    h.counts.assign(2048, 500);
    EXPECT_DOUBLE_EQ(entropyAmax(h, 128, 128), 1.0);
}

TEST(Calibrator, ParsesMethodNames) {
    for (const auto& m : kMethods) ASSERT_TRUE(parseCalibrationMethod(m).isOk()) << m;
    EXPECT_EQ(parseCalibrationMethod("minmax")->method, CalibrationMethod::MinMax);
    EXPECT_EQ(parseCalibrationMethod("mse")->method, CalibrationMethod::Mse);
    EXPECT_EQ(parseCalibrationMethod("entropy")->method, CalibrationMethod::Entropy);
    auto p = parseCalibrationMethod("percentile:99.9");
    ASSERT_TRUE(p.isOk());
    EXPECT_EQ(p->method, CalibrationMethod::Percentile);
    EXPECT_DOUBLE_EQ(p->percentile, 99.9);
    EXPECT_DOUBLE_EQ(parseCalibrationMethod("percentile")->percentile, 99.99);
    EXPECT_EQ(calibrationMethodName(*p), "percentile:99.9");
    EXPECT_EQ(calibrationMethodName(*parseCalibrationMethod("entropy")), "entropy");
    for (const std::string bad :
         {"", "kl", "percentile:", "percentile:0", "percentile:101", "percentile:abc", "percentile99", "Entropy"}) {
        auto r = parseCalibrationMethod(bad);
        ASSERT_FALSE(r.isOk()) << bad;
        EXPECT_EQ(r.status().code(), StatusCode::InvalidArgument);
    }
}

TEST(Calibrator, FactoryRejectsBadConfigs) {
    CalibrationConfig c;
    c.bins = 2;
    EXPECT_FALSE(makeCalibrator(c).isOk());
    c = {};
    c.percentile = 0;
    EXPECT_FALSE(makeCalibrator(c).isOk());
    c = {};
    c.levels = 1;
    EXPECT_FALSE(makeCalibrator(c).isOk());
}

TEST(Calibrator, RejectsAnObserverItDidNotMake) {
    auto minmax = makeCalibrator(*parseCalibrationMethod("minmax"));
    auto entropy = makeCalibrator(*parseCalibrationMethod("entropy"));
    auto histogram = (*entropy)->makeObserver();
    auto range = (*minmax)->makeObserver();
    EXPECT_EQ((*minmax)->computeAmax(*histogram).status().code(), StatusCode::Internal);
    EXPECT_EQ((*entropy)->computeAmax(*range).status().code(), StatusCode::Internal);
}

TEST(Calibrator, OneSignedObserverGivesEveryMethodsAmax) {
    std::vector<float> values = gaussianWithOutliers();
    for (size_t i = 0; i < values.size(); i += 7) values[i] = -0.5f * values[i];  // skewed: the fold matters
    auto config = *parseCalibrationMethod("percentile:99.9");
    config.bins = 1023;  // rounded to 1024 by both observers
    auto observer = calibrationObserver(config);
    for (size_t i = 0; i < values.size(); i += 10000)
        observer->observe(floats({values.begin() + i, values.begin() + std::min(values.size(), i + 10000)}));
    const MethodAmax all = amaxByMethod(*observer, config);
    const std::vector<std::pair<std::string, float>> expected = {
        {"minmax", all.minmax}, {"percentile:99.9", all.percentile}, {"entropy", all.entropy}, {"mse", all.mse}};
    for (const auto& [name, amax] : expected) {
        auto single = *parseCalibrationMethod(name);
        single.bins = config.bins;
        auto calibrator = makeCalibrator(single);
        ASSERT_TRUE(calibrator.isOk());
        auto alone = (*calibrator)->makeObserver();
        for (size_t i = 0; i < values.size(); i += 10000)
            alone->observe(floats({values.begin() + i, values.begin() + std::min(values.size(), i + 10000)}));
        EXPECT_EQ(amax, *(*calibrator)->computeAmax(*alone)) << name;
        EXPECT_EQ(all.of(single.method), amax) << name;
    }
    EXPECT_EQ(all.minmax, 49.0f);
    EXPECT_LT(all.entropy, all.minmax);
}

}  // namespace
}  // namespace ql
