#include "core/quant/histogram_observer.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <utility>

namespace ql {
namespace {

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

// One pass over the values, a block at a time: the block's extremes and its bin indices are computed in
// L1 by loops the compiler vectorises, then counted into four interleaved 32-bit sub-histograms
// (consecutive values often share a bin, e.g. the zeros after a ReLU, and a single histogram would
// serialise on that store-to-load dependency). Non-finite values go to an extra bin that is dropped.
// A block with a magnitude beyond the range abandons the pass before anything is merged: the caller
// widens the histogram to the batch's magnitude first, so every batch is binned at one range.
bool HistogramObserver::countInRange(std::span<const float> values) {
    Histogram& h = mHistogram;
    const size_t side = h.absolute ? h.bins() : h.bins() / 2;       // bins per sign
    const auto zero = static_cast<int32_t>(h.absolute ? 0 : side);  // the bin of [0, w)
    // While the range is 0 only zeros were seen (they land in the zero bin). Clamped so that 0 * perBin
    // stays 0 when a denormal range would make it infinite.
    const double largest = std::numeric_limits<float>::max();
    const float perBin =
        h.range > 0.0 ? static_cast<float>(std::min(static_cast<double>(side) / h.range, largest)) : 0.0f;
    const auto lastBin = static_cast<int32_t>(side - 1);
    const auto dropped = static_cast<int32_t>(h.bins());
    const bool absolute = h.absolute;
    constexpr size_t kWays = 4, kBlock = 512;
    const size_t stride = h.bins() + 1;
    thread_local std::vector<uint32_t> sub;
    sub.assign(kWays * stride, 0);
    alignas(64) int32_t index[kBlock];
    FiniteRange seen{std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(), 0, 0};
    for (size_t first = 0; first < values.size(); first += kBlock) {
        const size_t n = std::min(kBlock, values.size() - first);
        const float* v = values.data() + first;
        const FiniteRange r = finiteRange({v, n});
        if (r.finite &&
            std::max(std::fabs(static_cast<double>(r.min)), std::fabs(static_cast<double>(r.max))) > h.range)
            return false;
        seen = {std::min(seen.min, r.min), std::max(seen.max, r.max), seen.finite + r.finite,
                seen.nonFinite + r.nonFinite};
        for (size_t j = 0; j < n; ++j) {
            float magnitude = std::fabs(v[j]);
            const bool finite = magnitude <= std::numeric_limits<float>::max();
            magnitude = finite ? magnitude : 0.0f;
            const int32_t k = std::min(static_cast<int32_t>(magnitude * perBin), lastBin);
            const int32_t bin = absolute || !(v[j] < 0.0f) ? zero + k : zero - 1 - k;
            index[j] = finite ? bin : dropped;
        }
        size_t j = 0;
        for (; j + kWays <= n; j += kWays)
            for (size_t w = 0; w < kWays; ++w) ++sub[w * stride + static_cast<size_t>(index[j + w])];
        for (; j < n; ++j) ++sub[static_cast<size_t>(index[j])];
    }
    flush(sub, stride);
    countNonFinite(seen.nonFinite);
    if (seen.finite) {
        mMin = mFinite ? std::min(mMin, seen.min) : seen.min;
        mMax = mFinite ? std::max(mMax, seen.max) : seen.max;
        mFinite += seen.finite;
    }
    return true;
}

void HistogramObserver::flush(std::vector<uint32_t>& sub, size_t stride) {
    for (size_t b = 0; b < mHistogram.bins(); ++b)
        for (size_t w = 0; w * stride < sub.size(); ++w) mHistogram.counts[b] += std::exchange(sub[w * stride + b], 0);
}

void HistogramObserver::observeValues(std::span<const float> values) {
    // Chunks of at most 2^30 values keep the 32-bit sub-histogram counts from overflowing.
    constexpr size_t kChunk = size_t{1} << 30;
    for (size_t first = 0; first < values.size(); first += kChunk) {
        const std::span<const float> chunk = values.subspan(first, std::min(kChunk, values.size() - first));
        if (countInRange(chunk)) continue;  // the common case once the range has settled: one pass
        const FiniteRange r = finiteRange(chunk);
        widenTo(std::max(std::fabs(static_cast<double>(r.min)), std::fabs(static_cast<double>(r.max))));
        countInRange(chunk);  // cannot fail now: the range covers the chunk
    }
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
