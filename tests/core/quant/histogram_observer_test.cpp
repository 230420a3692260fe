#include "core/quant/histogram_observer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "core/quant/histogram_count.h"
#include "core/quant/min_max_observer.h"

namespace ql {
namespace {

Tensor floats(const std::vector<float>& values) {
    return Tensor::fromVector(DataType::Float, {static_cast<int64_t>(values.size())}, values);
}

// Values off every bin edge (so float rounding cannot move them between bins), spread over [lo, hi).
std::vector<float> spread(float lo, float hi, int n) {
    std::vector<float> v;
    for (int i = 0; i < n; ++i) v.push_back(lo + (hi - lo) * (static_cast<float>(i) + 0.37f) / static_cast<float>(n));
    return v;
}

TEST(HistogramObserver, FirstBatchSetsTheRangeToItsLargestMagnitude) {
    HistogramObserver o(HistogramObserver::Mode::Absolute, 8);
    o.observe(floats({-2.0f, 0.1f, 0.6f, 1.9f}));
    const Histogram& h = o.histogram();
    EXPECT_DOUBLE_EQ(h.range, 2.0);
    EXPECT_EQ(h.counts, (std::vector<uint64_t>{1, 0, 1, 0, 0, 0, 0, 2}));  // |-2| = R lands in the last bin
    EXPECT_EQ(h.total(), 4u);
}

TEST(HistogramObserver, GrowingMergesBinsWithoutLosingCounts) {
    std::vector<float> first = spread(-1.0f, 1.0f, 1000);
    first.push_back(1.0f);  // the first range is exactly 1
    const std::vector<float> second = spread(-3.0f, 3.0f, 500);
    for (auto mode : {HistogramObserver::Mode::Absolute, HistogramObserver::Mode::Signed}) {
        HistogramObserver grown(mode, 64);
        grown.observe(floats(first));
        grown.observe(floats(second));
        grown.observe(floats({4.0f}));  // exactly 4x the first range: two doublings
        // The same values seen at once, at the final range, give the same counts.
        std::vector<float> all = first;
        all.insert(all.end(), second.begin(), second.end());
        all.push_back(4.0f);
        HistogramObserver direct(mode, 64);
        direct.observe(floats({4.0f}));  // fixes the range first
        direct.observe(floats(std::vector<float>(all.begin(), all.end() - 1)));
        EXPECT_DOUBLE_EQ(grown.histogram().range, direct.histogram().range);
        // Except the first batch's maximum 1.0: at the first range's upper edge it was in the last bin,
        // which the doublings merged into the bin just below 1.0.
        std::vector<uint64_t> expected = direct.histogram().counts;
        const size_t edgeBin = mode == HistogramObserver::Mode::Absolute ? 64 / 4 : 64 / 2 + 64 / 8;
        --expected[edgeBin];
        ++expected[edgeBin - 1];
        EXPECT_EQ(grown.histogram().counts, expected);
        EXPECT_EQ(grown.histogram().total(), all.size());
    }
}

TEST(HistogramObserver, LargeJumpsKeepEveryCount) {
    HistogramObserver o;
    o.observe(floats(spread(0.0f, 1e-6f, 100)));
    o.observe(floats({1e30f}));
    EXPECT_EQ(o.histogram().total(), 101u);
    EXPECT_EQ(o.histogram().counts.front(), 100u);
    EXPECT_GE(o.histogram().range, 1e30);
}

TEST(HistogramObserver, ZerosBeforeAnyValueStayInTheZeroBin) {
    for (auto mode : {HistogramObserver::Mode::Absolute, HistogramObserver::Mode::Signed}) {
        HistogramObserver o(mode, 8);
        o.observe(floats({0.0f, 0.0f}));
        EXPECT_EQ(o.histogram().range, 0.0);
        o.observe(floats({-1.0f}));
        const size_t zeroBin = mode == HistogramObserver::Mode::Absolute ? 0 : 4;
        EXPECT_EQ(o.histogram().counts[zeroBin], 2u);
        EXPECT_EQ(o.histogram().counts[mode == HistogramObserver::Mode::Absolute ? 7 : 0], 1u);
    }
}

TEST(HistogramObserver, SignedHistogramKeepsTheSign) {
    HistogramObserver o(HistogramObserver::Mode::Signed, 8);
    o.observe(floats({-4.0f, -0.5f, 0.5f, 3.9f}));
    // Bins of width 1 over [-4, 4].
    EXPECT_EQ(o.histogram().counts, (std::vector<uint64_t>{1, 0, 0, 1, 1, 0, 0, 1}));
    EXPECT_DOUBLE_EQ(o.histogram().binEdge(0), -4.0);
}

TEST(HistogramObserver, NonFiniteValuesAreCountedAndIgnored) {
    HistogramObserver o;
    o.observe(floats({1.0f, std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()}));
    EXPECT_EQ(o.nonFiniteCount(), 2);
    EXPECT_EQ(o.histogram().total(), 1u);
    EXPECT_DOUBLE_EQ(o.histogram().range, 1.0);
    o.reset();
    EXPECT_EQ(o.nonFiniteCount(), 0);
    EXPECT_EQ(o.histogram().total(), 0u);
}

TEST(HistogramObserver, BinCountIsRoundedToAMultipleOfFour) {
    EXPECT_EQ(HistogramObserver(HistogramObserver::Mode::Signed, 2046).histogram().bins(), 2048u);
    EXPECT_EQ(HistogramObserver(HistogramObserver::Mode::Absolute, 1).histogram().bins(), 4u);
}

TEST(HistogramObserver, ReadsHalfAndDoubleTensors) {
    HistogramObserver o(HistogramObserver::Mode::Absolute, 4);
    o.observe(Tensor::fromVector(DataType::Double, {2}, std::vector<double>{0.5, 2.0}));
    o.observe(Tensor::fromVector(DataType::Float16, {1}, std::vector<uint16_t>{0x3c00}));  // 1.0
    o.observe(Tensor::fromVector(DataType::Int64, {1}, std::vector<int64_t>{100}));        // ignored
    EXPECT_EQ(o.histogram().counts, (std::vector<uint64_t>{0, 1, 1, 1}));                  // bins of 0.5 over [0, 2]
}

TEST(MinMaxObserver, TracksRangeAcrossBatches) {
    MinMaxObserver o;
    EXPECT_TRUE(o.empty());
    EXPECT_EQ(o.amax(), 0.0f);
    o.observe(floats({-3.0f, -1.0f}));
    o.observe(floats({-2.0f, std::numeric_limits<float>::quiet_NaN()}));
    EXPECT_EQ(o.min(), -3.0f);
    EXPECT_EQ(o.max(), -1.0f);
    EXPECT_EQ(o.amax(), 3.0f);
    EXPECT_EQ(o.count(), 3);
    EXPECT_EQ(o.nonFiniteCount(), 1);
    o.reset();
    EXPECT_TRUE(o.empty());
}

TEST(HistogramObserver, SignedBinsMirrorSoFoldingGivesTheAbsoluteHistogram) {
    std::vector<float> values = spread(-3.0f, 2.0f, 5000);
    values.insert(values.end(), {-2.0f, 2.0f, 1.0f, -1.0f, 0.0f, -0.0f});  // bin edges of both signs
    HistogramObserver absolute(HistogramObserver::Mode::Absolute, 64),
        signedObserver(HistogramObserver::Mode::Signed, 128);
    for (size_t i = 0; i < values.size(); i += 700) {
        const std::vector<float> batch(values.begin() + i, values.begin() + std::min(values.size(), i + 700));
        absolute.observe(floats(batch));
        signedObserver.observe(floats(batch));
    }
    const Histogram folded = foldToAbsolute(signedObserver.histogram());
    EXPECT_TRUE(folded.absolute);
    EXPECT_DOUBLE_EQ(folded.range, absolute.histogram().range);
    EXPECT_EQ(folded.counts, absolute.histogram().counts);
}

TEST(HistogramObserver, NegativeZeroCountsInTheZeroBin) {
    HistogramObserver o(HistogramObserver::Mode::Signed, 8);
    o.observe(floats({-0.0f, 0.0f, 1.0f}));
    EXPECT_EQ(o.histogram().counts[4], 2u);
}

TEST(HistogramObserver, TracksTheFiniteExtremes) {
    HistogramObserver o(HistogramObserver::Mode::Signed, 8);
    EXPECT_EQ(o.min(), 0.0f);
    o.observe(floats({std::numeric_limits<float>::infinity(), 0.5f, -0.25f}));
    o.observe(floats({-std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN(), 3.0f}));
    EXPECT_EQ(o.min(), -0.25f);
    EXPECT_EQ(o.max(), 3.0f);
    EXPECT_EQ(o.nonFiniteCount(), 3);
    EXPECT_EQ(o.histogram().total(), 3u);
}

TEST(HistogramObserver, CoarsenedMergesAdjacentBinsKeepingTheRange) {
    Histogram h{{1, 2, 3, 4, 5, 6, 7, 8}, 2.0, false};
    const Histogram c = coarsened(h, 4);
    EXPECT_EQ(c.counts, (std::vector<uint64_t>{3, 7, 11, 15}));
    EXPECT_DOUBLE_EQ(c.range, 2.0);
    EXPECT_FALSE(c.absolute);
    EXPECT_EQ(coarsened(h, 512).counts, h.counts);  // never more bins than it has
    EXPECT_EQ(coarsened(h, 6).bins(), 2u);          // a divisor of the bins: gcd(8, 6)
}

TEST(MinMaxObserver, IgnoresInfinityAndNaN) {
    MinMaxObserver o;
    o.observe(floats({-std::numeric_limits<float>::infinity(), 2.0f, std::numeric_limits<float>::quiet_NaN(), -1.0f}));
    EXPECT_EQ(o.min(), -1.0f);
    EXPECT_EQ(o.max(), 2.0f);
    EXPECT_EQ(o.count(), 2);
    EXPECT_EQ(o.nonFiniteCount(), 2);
}

// Normal values with the awkward cases sprinkled in: zeros of both signs, denormals, NaN, +-Inf, values
// at the range and a few beyond it.
std::vector<float> awkward(size_t n, uint32_t seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    std::vector<float> v(n);
    for (float& x : v) x = normal(rng);
    const float specials[] = {0.0f,
                              -0.0f,
                              1e-40f,
                              -1e-40f,
                              std::numeric_limits<float>::quiet_NaN(),
                              std::numeric_limits<float>::infinity(),
                              -std::numeric_limits<float>::infinity(),
                              4.0f,
                              -4.0f};
    for (size_t i = 0; i < n; i += 97) v[i] = specials[(i / 97) % std::size(specials)];
    for (size_t i = 0; i < n / 3; ++i) v[i] = std::max(v[i], 0.0f);  // a ReLU-like stretch of zeros
    return v;
}

std::vector<uint64_t> summed(const std::vector<uint32_t>& sub, size_t bins) {
    std::vector<uint64_t> counts(bins, 0);
    for (size_t i = 0; i < sub.size(); ++i) counts[i % bins] += sub[i];
    return counts;
}

TEST(HistogramCount, VectorAndPortableLoopsCountAlike) {
    const std::vector<float> v = awkward(10007, 1);
    for (const bool absolute : {true, false}) {
        for (const double range : {4.0, 6.5, 0.0}) {  // 6.5 covers every finite value; 4 and 0 do not
            const BinMap map(range, 64, absolute);
            std::vector<uint32_t> fast(kCountWays * 64, 0), portable(kCountWays * 64, 0);
            FiniteRange a{std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(), 0, 0};
            FiniteRange b = a;
            const bool fastOk = countValues(v, map, fast.data(), 64, a);
            ASSERT_EQ(fastOk, countValuesPortable(v, map, portable.data(), 64, b));
            EXPECT_EQ(fastOk, range == 6.5);
            if (!fastOk) continue;
            EXPECT_EQ(summed(fast, 64), summed(portable, 64));  // the ways may split a bin differently
            EXPECT_EQ(a.min, b.min);
            EXPECT_EQ(a.max, b.max);
            EXPECT_EQ(a.finite, b.finite);
            EXPECT_EQ(a.nonFinite, std::count_if(v.begin(), v.end(), [](float x) { return !std::isfinite(x); }));
            EXPECT_EQ(a.nonFinite, b.nonFinite);
        }
    }
}

TEST(HistogramObserver, SeveralThreadsCountLikeOne) {
    HistogramObserver one(HistogramObserver::Mode::Signed, 256), two(HistogramObserver::Mode::Signed, 256);
    two.setThreads(2);
    for (uint32_t batch = 0; batch < 3; ++batch) {
        std::vector<float> v = awkward(200000, batch);
        for (float& x : v) x *= static_cast<float>(batch + 1);  // each batch widens the range
        one.observe(floats(v));
        two.observe(floats(v));
    }
    EXPECT_EQ(one.histogram().counts, two.histogram().counts);
    EXPECT_EQ(one.histogram().range, two.histogram().range);
    EXPECT_EQ(one.min(), two.min());
    EXPECT_EQ(one.max(), two.max());
    EXPECT_EQ(one.nonFiniteCount(), two.nonFiniteCount());
    EXPECT_EQ(one.histogram().total() + static_cast<uint64_t>(one.nonFiniteCount()), 600000u);
}

}  // namespace
}  // namespace ql
