#include "core/quant/histogram_observer.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <utility>

#include <omp.h>

namespace ql {
namespace {

// Zero-filled scratch of at least `size` counts for the calling thread; callers leave it zero.
uint32_t* zeroedScratch(size_t size) {
    thread_local std::vector<uint32_t> scratch;
    if (scratch.size() < size) scratch.resize(size, 0u);
    return scratch.data();
}

// Merges pairs of bins moving away from bin `anchor` in the direction `step` (+1 or -1), over `n` bins.
void mergePairs(std::vector<uint64_t>& counts, size_t anchor, int step, size_t n) {
    const auto at = [&](size_t k) -> uint64_t& { return counts[step > 0 ? anchor + k : anchor - k]; };
    for (size_t k = 0; k < n; ++k) at(k) = k < n / 2 ? at(2 * k) + at(2 * k + 1) : 0;
}

}  // namespace

uint64_t Histogram::total() const {
    return std::accumulate(counts.begin(), counts.end(), uint64_t{0});
}

HistogramObserver::HistogramObserver(Mode mode, int bins) {
    const size_t n = static_cast<size_t>(std::max(4, (bins + 3) / 4 * 4));
    mHistogram.counts.assign(n, 0);
    mHistogram.absolute = mode == Mode::Absolute;
}

void HistogramObserver::reset() {
    std::fill(mHistogram.counts.begin(), mHistogram.counts.end(), 0);
    mHistogram.range = 0.0;
    mMin = mMax = 0.0f;
    mFinite = 0;
    resetNonFinite();
}

void HistogramObserver::widenTo(double magnitude) {
    Histogram& h = mHistogram;
    if (h.range == 0.0) {
        h.range = magnitude;  // only zeros so far: they sit in the zero bin at any range
        return;
    }
    const size_t n = h.bins();
    // Past ~64 doublings every old count is in the zero bin already; stop merging, keep doubling.
    for (int doublings = 0; h.range < magnitude; ++doublings) {
        if (doublings < 64) {
            if (h.absolute) {
                mergePairs(h.counts, 0, +1, n);
            } else {
                mergePairs(h.counts, n / 2, +1, n / 2);
                mergePairs(h.counts, n / 2 - 1, -1, n / 2);
            }
        }
        h.range *= 2.0;
    }
}

// One pass over the values (histogram_count.h) into per-thread 32-bit sub-histograms that stay zero
// between calls, merged into the 64-bit counts over the bins between the extremes' bins only. A batch
// with a magnitude beyond the range abandons the pass before anything is merged: the caller widens the
// histogram to the batch's magnitude first, so every batch is binned at one range.
bool HistogramObserver::countInRange(std::span<const float> values) {
    const BinMap map(mHistogram.range, mHistogram.bins(), mHistogram.absolute);
    FiniteRange seen{std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(), 0, 0};
    const bool ok = mThreads > 1 && values.size() >= kParallelValues ? countParallel(values, map, seen)
                                                                     : countSerial(values, map, seen);
    if (!ok) return false;
    countNonFinite(seen.nonFinite);
    mBatch = {std::min(mBatch.min, seen.min), std::max(mBatch.max, seen.max), mBatch.finite + seen.finite,
              mBatch.nonFinite + seen.nonFinite};
    if (seen.finite) {
        mMin = mFinite ? std::min(mMin, seen.min) : seen.min;
        mMax = mFinite ? std::max(mMax, seen.max) : seen.max;
        mFinite += seen.finite;
    }
    return true;
}

bool HistogramObserver::countSerial(std::span<const float> values, const BinMap& map, FiniteRange& seen) {
    const size_t bins = mHistogram.bins();
    uint32_t* sub = zeroedScratch(kCountWays * bins);
    if (!countValues(values, map, sub, bins, seen)) {
        std::fill(sub, sub + kCountWays * bins, 0u);
        return false;
    }
    if (seen.finite) {
        const auto [begin, end] = map.binsBetween(seen.min, seen.max);
        flush({&sub, 1}, begin, end);
    }
    return true;
}

// Each thread counts a contiguous share into its own sub-histograms; after a barrier, each merges a share
// of the bins from all of them (no two threads write the same count).
bool HistogramObserver::countParallel(std::span<const float> values, const BinMap& map, FiniteRange& seen) {
    const size_t bins = mHistogram.bins(), n = values.size();
    std::vector<uint32_t*> subs(static_cast<size_t>(mThreads));
    std::vector<FiniteRange> parts(subs.size(), seen);
    std::vector<char> ok(subs.size(), 0);
    const FiniteRange start = seen;
    int used = 1;
#pragma omp parallel num_threads(mThreads)
    {
        const auto t = static_cast<size_t>(omp_get_thread_num()), nt = static_cast<size_t>(omp_get_num_threads());
        if (t == 0) used = static_cast<int>(nt);
        subs[t] = zeroedScratch(kCountWays * bins);
        ok[t] = countValues(values.subspan(n * t / nt, n * (t + 1) / nt - n * t / nt), map, subs[t], bins, parts[t]);
#pragma omp barrier
        FiniteRange all = start;
        bool allOk = true;
        for (size_t p = 0; p < nt; ++p) {
            allOk = allOk && ok[p];
            all = {std::min(all.min, parts[p].min), std::max(all.max, parts[p].max), all.finite + parts[p].finite,
                   all.nonFinite + parts[p].nonFinite};
        }
        if (!allOk) {
            std::fill(subs[t], subs[t] + kCountWays * bins, 0u);
        } else if (all.finite) {
            const auto [begin, end] = map.binsBetween(all.min, all.max);
            flush({subs.data(), nt}, begin + (end - begin) * t / nt, begin + (end - begin) * (t + 1) / nt);
        }
        if (t == 0) seen = all;
    }
    return std::all_of(ok.begin(), ok.begin() + used, [](char c) { return c != 0; });
}

void HistogramObserver::flush(std::span<uint32_t* const> subs, size_t begin, size_t end) {
    const size_t stride = mHistogram.bins();
    for (uint32_t* sub : subs)
        for (size_t w = 0; w < kCountWays; ++w)
            for (size_t b = begin; b < end; ++b) mHistogram.counts[b] += std::exchange(sub[w * stride + b], 0u);
}

void HistogramObserver::observeValues(std::span<const float> values) {
    // Chunks of at most 2^30 values keep the 32-bit sub-histogram counts from overflowing.
    constexpr size_t kChunk = size_t{1} << 30;
    mBatch = {std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(), 0, 0};
    for (size_t first = 0; first < values.size(); first += kChunk) {
        const std::span<const float> chunk = values.subspan(first, std::min(kChunk, values.size() - first));
        if (countInRange(chunk)) continue;  // the common case once the range has settled: one pass
        const FiniteRange r = finiteRange(chunk);
        widenTo(std::max(std::fabs(static_cast<double>(r.min)), std::fabs(static_cast<double>(r.max))));
        countInRange(chunk);  // cannot fail now: the range covers the chunk
    }
}

HistogramObserver HistogramObserver::clamped(float lo, float hi) const {
    HistogramObserver c = *this;
    const auto clamp = [&](float x) { return std::min(std::max(x, lo), hi); };
    c.mMin = clamp(mMin);
    c.mMax = clamp(mMax);
    std::vector<uint64_t>& counts = c.mHistogram.counts;
    if (mHistogram.range == 0.0 || mHistogram.absolute) return c;  // only zeros: the caller saw they stay
    const BinMap map(mHistogram.range, mHistogram.bins(), false);
    if (lo > -mHistogram.range) {
        const auto low = static_cast<size_t>(map.binOf(lo));
        for (size_t b = 0; b < low; ++b) counts[low] += std::exchange(counts[b], 0);
    }
    if (hi < mHistogram.range) {
        const auto high = static_cast<size_t>(map.binOf(hi));
        for (size_t b = high + 1; b < counts.size(); ++b) counts[high] += std::exchange(counts[b], 0);
    }
    return c;
}

Histogram foldToAbsolute(const Histogram& s) {
    if (s.absolute) return s;
    const size_t side = s.bins() / 2;
    Histogram a{std::vector<uint64_t>(side, 0), s.range, true};
    for (size_t k = 0; k < side; ++k) a.counts[k] = s.counts[side + k] + s.counts[side - 1 - k];
    return a;
}

Histogram coarsened(const Histogram& h, size_t maxBins) {
    const size_t bins = std::gcd(h.bins(), std::max<size_t>(maxBins, 1));
    const size_t group = h.bins() / bins;
    Histogram c{std::vector<uint64_t>(bins, 0), h.range, h.absolute};
    for (size_t i = 0; i < h.bins(); ++i) c.counts[i / group] += h.counts[i];
    return c;
}

}  // namespace ql
