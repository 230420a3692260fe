#pragma once
// A histogram whose range grows as data arrives, without losing what was already counted.
//
// The bin count stays fixed (2048 by default). The first non-zero value sets the range R to the batch's
// largest magnitude. When a later batch holds a larger magnitude, R doubles, and each pair of adjacent
// bins merges into one, as often as needed to cover it: counts are never re-estimated or dropped, only
// made coarser (each doubling halves the resolution). TensorRT's calibrator, ModelOpt and ONNX Runtime
// keep the bin width and append bins instead; doubling keeps memory and calibration cost bounded.
//
// Absolute histograms count |x| over [0, R] (what the symmetric calibrators use); signed ones count x
// over [-R, R] (what the UI draws and what whole-model calibration keeps, see calibration.h). A value
// equal to R falls in the last bin. Signed bins mirror each other around 0: x < 0 goes where |x| would go
// on the positive side, reflected, so folding a signed histogram of 2B bins gives exactly the absolute
// histogram of B bins (foldToAbsolute); negative bins are (lo, hi], positive ones [lo, hi).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/quant/histogram_count.h"
#include "core/quant/observer.h"

namespace ql {

struct Histogram {
    std::vector<uint64_t> counts;
    double range = 0.0;  // R; 0 while only zeros were seen (they are counted in the zero bin)
    bool absolute = true;

    size_t bins() const { return counts.size(); }
    double low() const { return absolute ? 0.0 : -range; }
    double binWidth() const { return (absolute ? range : 2.0 * range) / static_cast<double>(counts.size()); }
    double binEdge(size_t i) const { return low() + static_cast<double>(i) * binWidth(); }
    uint64_t total() const;
};

// The absolute histogram of the same values: B bins over [0, R] from a signed one of 2B bins.
Histogram foldToAbsolute(const Histogram& signedHistogram);
// Adjacent bins merged down to gcd(bins, maxBins) bins (a compact copy for files and plots).
Histogram coarsened(const Histogram& histogram, size_t maxBins);

class HistogramObserver final : public Observer {
public:
    enum class Mode { Absolute, Signed };
    static constexpr int kDefaultBins = 2048;

    // `bins` is rounded up to a multiple of 4 (at least 4), so a signed histogram merges pairs on both sides of 0.
    explicit HistogramObserver(Mode mode = Mode::Absolute, int bins = kDefaultBins);
    void reset() override;
    // Threads that share the counting of large tensors (OpenMP); 1 by default.
    void setThreads(int threads) { mThreads = std::max(1, threads); }
    const Histogram& histogram() const { return mHistogram; }
    // What the last observe() saw (extremes of its finite values, non-finite count).
    const FiniteRange& lastBatch() const { return mBatch; }
    // The observer of clamp(x, lo, hi) for the values x this signed observer saw, provided that observer
    // would have the same range (its range follows its own batches' magnitudes: the caller checks) and
    // no value was non-finite. Exact: bins below lo's bin hold values that clamp to lo, which lies in that
    // bin (bins are monotonic in x), and likewise above hi; other values keep their bin.
    HistogramObserver clamped(float lo, float hi) const;
    // Extremes of the finite values seen; 0 before any.
    float min() const { return mFinite ? mMin : 0.0f; }
    float max() const { return mFinite ? mMax : 0.0f; }

private:
    void observeValues(std::span<const float> values) override;
    void widenTo(double magnitude);
    // Counts the values and returns true, or returns false having changed nothing when one of them
    // lies beyond the range.
    bool countInRange(std::span<const float> values);
    bool countSerial(std::span<const float> values, const BinMap& map, FiniteRange& seen);
    bool countParallel(std::span<const float> values, const BinMap& map, FiniteRange& seen);
    // Adds bins [begin, end) of the sub-histograms to the counts and zeroes them there.
    void flush(std::span<uint32_t* const> subs, size_t begin, size_t end);

    // Below this many values one thread counts alone (starting the others costs more than it saves).
    static constexpr size_t kParallelValues = size_t{1} << 16;

    Histogram mHistogram;
    float mMin = 0.0f, mMax = 0.0f;
    int64_t mFinite = 0;
    FiniteRange mBatch;
    int mThreads = 1;
};

}  // namespace ql
