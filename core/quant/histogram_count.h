#pragma once
// The inner loop of HistogramObserver: one pass over the values that finds their finite extremes and
// counts them into 32-bit sub-histograms (see histogram_observer.h for the bin layout). An AVX-512 version
// is picked at run time when the CPU has it; both give the same counts.
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>

#include "core/quant/observer.h"

namespace ql {

// Where values go, for a histogram of `side` bins per sign over [0, range] or [-range, range].
struct BinMap {
    float perBin = 0.0f;  // bins per unit of |x|; 0 while the range is 0 (only zeros seen)
    float range = 0.0f;   // the range as a float (+inf when it exceeds the float range)
    int32_t zero = 0;     // the bin of [0, w)
    int32_t lastBin = 0;  // side - 1
    bool absolute = true;

    BinMap(double range, size_t bins, bool absolute);
    int32_t binOf(float finiteValue) const;
    // The bins [first, end) that finite values within these extremes can fall in (all of them, finite > 0).
    std::pair<size_t, size_t> binsBetween(float min, float max) const;
};

// Sub-histograms the counting loop spreads consecutive values over (consecutive values often share a bin,
// and a single histogram serialises on that store-to-load dependency on older CPUs). Two, not more: on this
// project's benchmark machine (an AVX-512 FP16 Xeon) four 8 KB sub-histograms counted 30% slower than two,
// the extra lines competing in L1 with the index buffer and the values.
inline constexpr size_t kCountWays = 2;

// Counts the finite values into `sub` (kCountWays arrays of `stride` >= bins counts, summed later) and
// adds their extremes and the number of non-finite values to `seen`. Stops and returns false as soon as a
// finite magnitude exceeds the range: blocks already counted stay in `sub` (the caller clears it).
// At most 2^31 values, so no 32-bit count overflows.
bool countValues(std::span<const float> values, const BinMap& map, uint32_t* sub, size_t stride, FiniteRange& seen);
// The portable loop countValues uses on CPUs without AVX-512 (the tests check both count alike).
bool countValuesPortable(std::span<const float> values, const BinMap& map, uint32_t* sub, size_t stride,
                         FiniteRange& seen);

}  // namespace ql
