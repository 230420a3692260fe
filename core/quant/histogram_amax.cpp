#include "core/quant/histogram_amax.h"
#include "core/common/target_clones.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace ql {

double percentileAmax(const Histogram& h, double percentile) {
    const uint64_t total = h.total();
    if (total == 0 || h.range == 0.0) return 0.0;
    const double target = percentile / 100.0 * static_cast<double>(total);
    uint64_t cumulative = 0;
    for (size_t i = 0; i < h.bins(); ++i) {
        cumulative += h.counts[i];
        if (static_cast<double>(cumulative) >= target) return h.binEdge(i + 1);
    }
    return h.binEdge(h.bins());
}

// Entropy calibration, as TensorRT's IInt8EntropyCalibrator2 describes it. Sources: Szymon Migacz,
// "8-bit Inference with TensorRT", GTC 2017 (slides "Entropy Calibration - pseudocode"); the NVIDIA
// TensorRT developer guide ("INT8 calibration ... entropy"); pytorch-quantization / ModelOpt
// calib/histogram.py `_compute_amax_entropy`; MXNet / ONNX Runtime `_smooth_distribution`.
//
// Input: counts h[0..B) of |x| over [0, R], bin width w = R / B.
//  0. h[0] := h[1]: exact zeros (ReLU outputs) would otherwise dominate P (pytorch-quantization does this).
//  1. For each candidate i = startBin .. L, L = 1 + the last non-empty bin (i = L clips nothing; candidates
//     past L would clip nothing either, and the histogram's range can exceed the data, see histogram_observer.h):
//     P = h[0..i) with the outliers sum(h[i..B)) added to P[i-1]: what clipping at i*w keeps.
//     Q = h[0..i) (without the outliers) merged into `levels` groups, bin j in group floor(j * levels / i)
//         (np.digitize over np.linspace(0, i, levels + 1), as pytorch-quantization), then expanded back:
//         each group's sum is spread evenly over the group's bins where P is non-zero, zero elsewhere
//         (MXNet / ONNX Runtime; pytorch-quantization uses the bins where h is non-zero, which makes every
//         candidate whose last bin is empty infinitely bad and so keeps more of a sparse tail).
//     Normalise P and Q to sum 1. Where P > 0 but Q = 0 (a group with no counts of its own), Q gets
//     eps = 1e-4 and is renormalised (the smoothing of MXNet/ONNX Runtime, needed only where P > 0
//     since bins with P = 0 add nothing to KL).
//     KL(P || Q) = sum over P > 0 of P log(P / Q).
//  2. The i with the smallest KL wins; on ties the largest i (as pytorch-quantization's "last argmin").
//  3. amax = i * w, the upper edge of the last kept bin (pytorch-quantization's calib_bin_edges[i];
//     the GTC slide writes (i + 0.5) * w, half a bin more).
// tests/tools/entropy_reference.py implements the same steps in numpy; the C++ test checks both agree.
namespace {

constexpr double kSmoothing = 1e-4;
// KLs closer than this are ties (the larger i wins); the prefix-sum form below rounds differently from
// a bin-by-bin sum, and a tie (e.g. KL = 0 for every candidate of a flat histogram) must stay a tie.
constexpr double kTie = 1e-12;

size_t lastNonEmptyBin(const Histogram& h) {
    size_t last = 0;
    for (size_t i = 0; i < h.bins(); ++i)
        if (h.counts[i]) last = i;
    return last;
}

// Prefix sums over the bins [0, k) of h (after step 0), so each candidate costs O(levels), not O(i):
// calibration evaluates ~2000 candidates for every activation tensor of the model. The logs of group
// masses are memoised: groups of up to kCachedWidth bins recur from one candidate to the next (for
// 2048 bins and 128 levels, ~35k distinct groups against ~240k evaluated).
struct EntropyTables {
    static constexpr size_t kCachedWidth = 32;
    std::vector<double> h, sum, hLogH;
    std::vector<int64_t> nonZero;
    std::vector<double> logMass, logCount;  // NaN until computed

    explicit EntropyTables(std::vector<double> bins) : h(std::move(bins)) {
        sum.assign(h.size() + 1, 0.0);
        hLogH.assign(h.size() + 1, 0.0);
        nonZero.assign(h.size() + 1, 0);
        for (size_t k = 0; k < h.size(); ++k) {
            sum[k + 1] = sum[k] + h[k];
            hLogH[k + 1] = hLogH[k] + (h[k] > 0.0 ? h[k] * std::log(h[k]) : 0.0);
            nonZero[k + 1] = nonZero[k] + (h[k] > 0.0);
        }
        logMass.assign((kCachedWidth + 1) * sum.size(), std::numeric_limits<double>::quiet_NaN());
        logCount.assign(h.size() + 2, std::numeric_limits<double>::quiet_NaN());
    }
    // log of the mass of bins [begin, end), which must be positive.
    double logOfMass(size_t begin, size_t end) {
        if (end - begin > kCachedWidth) return std::log(sum[end] - sum[begin]);
        double& cached = logMass[(end - begin) * sum.size() + begin];
        if (std::isnan(cached)) cached = std::log(sum[end] - sum[begin]);
        return cached;
    }
    double logOf(int64_t count) {
        double& cached = logCount[static_cast<size_t>(count)];
        if (std::isnan(cached)) cached = std::log(static_cast<double>(count));
        return cached;
    }
};

// KL(P || Q) of clipping at bin i (step 1 above), from the tables: sum P log P - sum P log Q, where Q is
// constant over the non-zero bins of a group. log Q is taken apart (log of the group's mass, of its bin
// count, of the sum and of the smoothing factor) so that only memoised logs are evaluated per group, in one
// pass over the groups: the sum and the smoothing factor enter as whole-candidate terms at the end.
double clippingDivergence(EntropyTables& t, size_t i, size_t levels) {
    const double total = t.sum.back();  // = sum of P
    const double outliers = total - t.sum[i];
    const double lastP = t.h[i - 1] + outliers;
    double qSum = 0.0;
    int64_t smoothedBins = 0;  // bins with P > 0 in groups with no counts of their own: Q = eps there
    // q = (hMass / nonZero / qSum) / smoothed for groups with mass, kSmoothing / smoothed for the others.
    double withMass = 0.0, pLogPerBin = 0.0, withoutMass = 0.0;
    // Group g is bins [ceil(g i / levels), ceil((g + 1) i / levels)); the ceilings are stepped, not divided.
    const size_t step = i / levels, stepRest = i % levels;
    size_t end = 0, rest = levels - 1;  // end * levels + rest = g * i + levels - 1
    for (size_t g = 0; g < levels; ++g) {
        const size_t begin = end;
        end += step;
        rest += stepRest;
        if (rest >= levels) {
            rest -= levels;
            ++end;
        }
        if (begin >= end) continue;
        const double hMass = t.sum[end] - t.sum[begin];
        double pMass = hMass;
        int64_t nonZero = t.nonZero[end] - t.nonZero[begin];
        if (end == i) {
            pMass += outliers;
            if (t.h[i - 1] <= 0.0 && lastP > 0.0) ++nonZero;
        }
        if (nonZero == 0) continue;
        if (hMass > 0.0) {
            qSum += hMass;
            withMass += pMass;
            pLogPerBin += pMass * (t.logOfMass(begin, end) - t.logOf(nonZero));
        } else {
            smoothedBins += nonZero;
            withoutMass += pMass;
        }
    }
    if (total <= 0.0 || qSum <= 0.0) return std::numeric_limits<double>::infinity();
    const double smoothed = 1.0 + kSmoothing * static_cast<double>(smoothedBins);
    const double pLogQ = pLogPerBin - withMass * std::log(qSum) + withoutMass * std::log(kSmoothing) -
                         (withMass + withoutMass) * std::log(smoothed);
    const double pLogP = t.hLogH[i - 1] + (lastP > 0.0 ? lastP * std::log(lastP) : 0.0);
    return (pLogP - pLogQ) / total - std::log(total);
}

}  // namespace

double entropyAmax(const Histogram& hist, int startBin, int levels) {
    if (hist.range == 0.0 || hist.total() == 0) return 0.0;
    std::vector<double> h(hist.counts.begin(), hist.counts.end());
    if (h.size() > 1) h[0] = h[1];
    EntropyTables tables(std::move(h));
    const size_t last = lastNonEmptyBin(hist) + 1;
    const size_t first = std::clamp<size_t>(static_cast<size_t>(std::max(startBin, 1)), 1, last);
    size_t best = last;
    double bestKl = std::numeric_limits<double>::infinity();
    for (size_t i = first; i <= last; ++i) {
        const double kl = clippingDivergence(tables, i, static_cast<size_t>(levels));
        if (kl <= bestKl + kTie) {
            bestKl = std::min(kl, bestKl);
            best = i;
        }
    }
    return hist.binEdge(best);
}

namespace {

// The squared quantization error of the packed bins at one candidate scale, in eight running sums (a
// vector's worth, so the loop vectorises; summed in a fixed order, so the result does not depend on the
// CPU). x * (1 / scale) rounds to the same integer as x / scale: x / scale = levels' (2k + 1) / (2i + 1)
// is at least 1 / (2 (2i + 1)) away from any tie, far more than the two products can differ.
// Adding and removing 1.5 * 2^52 rounds half to even, as std::nearbyint in the default rounding mode
// (x / scale stays far below 2^51), without a library call.
QL_TARGET_CLONES("avx512f", "default")
double clippingError(const double* counts, const double* centers, size_t n, double scale, double maxLevel) {
    constexpr double kRound = 6755399441055744.0;
    constexpr size_t kLanes = 8;
    const double inverse = 1.0 / scale;
    double lanes[kLanes] = {};
    size_t k = 0;
    for (; k + kLanes <= n; k += kLanes)
        for (size_t w = 0; w < kLanes; ++w) {
            const double c = centers[k + w];
            const double d = std::min((c * inverse + kRound) - kRound, maxLevel) * scale - c;
            lanes[w] += counts[k + w] * d * d;
        }
    for (; k < n; ++k) {
        const double d = std::min((centers[k] * inverse + kRound) - kRound, maxLevel) * scale - centers[k];
        lanes[0] += counts[k] * d * d;
    }
    double error = 0.0;
    for (double lane : lanes) error += lane;
    return error;
}

}  // namespace

double mseAmax(const Histogram& h, int startBin, int levels) {
    if (h.range == 0.0 || h.total() == 0) return 0.0;
    const double maxLevel = levels - 1;
    const auto center = [&](size_t j) { return (static_cast<double>(j) + 0.5) * h.binWidth(); };
    // Only non-empty bins add error; packed so the inner loop is branch-free and vectorises.
    std::vector<double> counts, centers;
    for (size_t j = 0; j < h.bins(); ++j) {
        if (!h.counts[j]) continue;
        counts.push_back(static_cast<double>(h.counts[j]));
        centers.push_back(center(j));
    }
    const size_t last = lastNonEmptyBin(h);
    const size_t first = std::min(static_cast<size_t>(std::max(startBin, 0)), last);
    size_t best = last;
    double bestError = std::numeric_limits<double>::infinity();
    for (size_t i = first; i <= last; ++i) {
        const double error =
            clippingError(counts.data(), centers.data(), counts.size(), center(i) / maxLevel, maxLevel);
        if (error < bestError) {
            bestError = error;
            best = i;
        }
    }
    return center(best);
}

}  // namespace ql
