#include "core/quant/expected_error.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "core/quant/calibrator.h"
#include "core/quant/histogram_amax.h"

namespace ql {
namespace {

// |x| of `values` counted in `bins` bins over [0, range].
Histogram absoluteHistogram(const std::vector<float>& values, double range, size_t bins = 2048) {
    Histogram h{std::vector<uint64_t>(bins, 0), range, true};
    for (float v : values) {
        const auto bin = static_cast<size_t>(std::fabs(v) / range * static_cast<double>(bins));
        ++h.counts[std::min(bin, bins - 1)];
    }
    return h;
}

// The error of a real INT8 quantize-dequantize of `values` with `amax`, as SQNR.
double measuredSqnrDb(const std::vector<float>& values, double amax) {
    const double step = amax / 127.0;
    double signal = 0.0, noise = 0.0;
    for (float v : values) {
        const double q = std::clamp(std::nearbyint(v / step), -127.0, 127.0) * step;
        signal += double{v} * v;
        noise += (v - q) * (v - q);
    }
    return 10.0 * std::log10(signal / noise);
}

std::vector<float> uniform(size_t n, float lo, float hi, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> d(lo, hi);
    std::vector<float> v(n);
    for (float& x : v) x = d(rng);
    return v;
}

TEST(ExpectedQuantization, UniformValuesWithTheirMaximumAsAmaxGiveTheTextbookSqnr) {
    const std::vector<float> values = uniform(200000, -2.0f, 2.0f, 1);
    const ExpectedQuantization e = expectedQuantization(absoluteHistogram(values, 2.0), 2.0);
    EXPECT_EQ(e.clippedFraction, 0.0);
    // mean x^2 = A^2 / 3, noise = (A / 127)^2 / 12: 10 log10(4 * 127^2) = 48.1 dB.
    EXPECT_NEAR(e.sqnrDb, 10.0 * std::log10(4.0 * 127.0 * 127.0), 0.1);
    EXPECT_NEAR(e.sqnrDb, measuredSqnrDb(values, 2.0), 0.2);
}

TEST(ExpectedQuantization, ClippingHalfTheRangeClipsHalfTheValuesAndMatchesARealQuantization) {
    const std::vector<float> values = uniform(200000, -2.0f, 2.0f, 2);
    const ExpectedQuantization e = expectedQuantization(absoluteHistogram(values, 2.0), 1.0);
    EXPECT_NEAR(e.clippedFraction, 0.5, 0.01);
    EXPECT_NEAR(e.sqnrDb, measuredSqnrDb(values, 1.0), 0.2);
}

TEST(ExpectedQuantization, ValuesBelowHalfAStepRoundToZeroAndCostTheirOwnSquare) {
    // Every value is tiny against the step of amax 100: all round to 0, so the noise is the signal.
    const std::vector<float> values = uniform(10000, -0.1f, 0.1f, 3);
    const ExpectedQuantization e = expectedQuantization(absoluteHistogram(values, 0.1, 64), 100.0);
    EXPECT_NEAR(e.sqnrDb, 0.0, 0.05);
    EXPECT_EQ(e.clippedFraction, 0.0);
}

TEST(ExpectedQuantization, AnAmaxAtTheLargestValueClipsNothingWhateverTheBinEdges) {
    // The histogram's range (4) is twice the data's: the last non-empty bin reaches past the largest value 1.99.
    const std::vector<float> values = uniform(50000, 0.0f, 1.99f, 4);
    const Histogram h = absoluteHistogram(values, 4.0, 16);
    EXPECT_GT(expectedQuantization(h, 1.99).clippedFraction, 0.0);  // the bin [1.75, 2) counted as spread to 2
    EXPECT_EQ(expectedQuantization(h, 1.99, 128, 1.99).clippedFraction, 0.0);
}

TEST(ExpectedQuantization, NothingButZerosHasNoSignal) {
    Histogram h{std::vector<uint64_t>(8, 0), 0.0, true};
    h.counts[0] = 100;
    const ExpectedQuantization e = expectedQuantization(h, 0.0);
    EXPECT_EQ(e.sqnrDb, 0.0);
    EXPECT_EQ(e.clippedFraction, 0.0);
}

// A normalised image: 70% of the pixels at the background value -0.42, the rest spread up to 2.2.
std::vector<float> spikyImagePixels() {
    std::vector<float> v(70000, -0.42f);
    const std::vector<float> bright = uniform(30000, -0.42f, 2.2f, 5);
    v.insert(v.end(), bright.begin(), bright.end());
    return v;
}

TEST(AutoMethod, PicksTheMethodWithTheBestExpectedSqnrAndNeverEntropyWhenEntropyClipsTheTail) {
    const std::vector<float> values = spikyImagePixels();
    const CalibrationConfig config;
    HistogramObserver observer = *calibrationObserver(config);
    observer.observe(Tensor::fromVector(DataType::Float, {static_cast<int64_t>(values.size())}, values));
    const MethodAmax amax = amaxByMethod(observer, config);
    const Histogram h = foldToAbsolute(observer.histogram());
    const CalibrationMethod best = bestExpectedMethod(h, amax, config.levels);
    double bestSqnr = expectedQuantization(h, amax.of(best), 128, amax.minmax).sqnrDb;
    for (CalibrationMethod m : kAmaxMethods)
        EXPECT_GE(bestSqnr, expectedQuantization(h, amax.of(m), 128, amax.minmax).sqnrDb) << amaxMethodKey(m);
    const ExpectedQuantization entropy = expectedQuantization(h, amax.entropy, 128, amax.minmax);
    ASSERT_GT(entropy.clippedFraction, 0.01) << "the spike should make entropy clip the bright pixels";
    EXPECT_NE(best, CalibrationMethod::Entropy);
    // The Auto calibrator (an absolute histogram alone) agrees with the whole-model choice.
    auto autoConfig = parseCalibrationMethod("auto");
    ASSERT_TRUE(autoConfig.isOk());
    auto calibrator = makeCalibrator(*autoConfig);
    ASSERT_TRUE(calibrator.isOk());
    auto own = (*calibrator)->makeObserver();
    own->observe(Tensor::fromVector(DataType::Float, {static_cast<int64_t>(values.size())}, values));
    auto autoAmax = (*calibrator)->computeAmax(*own);
    ASSERT_TRUE(autoAmax.isOk());
    EXPECT_GT(*autoAmax, amax.entropy);
}

TEST(AutoMethod, NamesParseBothWays) {
    auto config = parseCalibrationMethod("auto");
    ASSERT_TRUE(config.isOk());
    EXPECT_EQ(config->method, CalibrationMethod::Auto);
    EXPECT_EQ(calibrationMethodName(*config), "auto");
    EXPECT_EQ(parseAmaxMethod("percentile:99.9"), CalibrationMethod::Percentile);
    EXPECT_EQ(parseAmaxMethod("mse"), CalibrationMethod::Mse);
    EXPECT_FALSE(parseAmaxMethod("auto").has_value());
    EXPECT_FALSE(parseAmaxMethod("kl").has_value());
}

}  // namespace
}  // namespace ql
