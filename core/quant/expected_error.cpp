#include "core/quant/expected_error.h"

#include <algorithm>
#include <cmath>

namespace ql {
namespace {

// The mean of x^2 over values spread evenly over [a, b].
double meanSquare(double a, double b) {
    return (a * a + a * b + b * b) / 3.0;
}

// Expected squared rounding error of values spread evenly over [lo, hi] (all within the range).
double roundingError(double lo, double hi, double step) {
    const double half = step / 2.0;
    if (hi <= half) return meanSquare(lo, hi);  // all round to zero
    if (lo >= half) return step * step / 12.0;
    // Part rounds to zero, part to a step.
    const double zeroShare = (half - lo) / (hi - lo);
    return zeroShare * meanSquare(lo, half) + (1.0 - zeroShare) * step * step / 12.0;
}

// Expected squared saturation error of values spread evenly over [lo, hi], all beyond amax.
double clippingError(double lo, double hi, double amax) {
    return meanSquare(lo - amax, hi - amax);
}

}  // namespace

ExpectedQuantization expectedQuantization(const Histogram& h, double amax, int levels, double maxMagnitude) {
    ExpectedQuantization e;
    const uint64_t total = h.total();
    if (total == 0 || h.range <= 0.0) return e;
    const double width = h.binWidth();
    const double step = amax / std::max(1, levels - 1);
    double signal = 0.0, noise = 0.0, clipped = 0.0;
    for (size_t i = 0; i < h.bins(); ++i) {
        if (!h.counts[i]) continue;
        const double count = static_cast<double>(h.counts[i]);
        const double lo = static_cast<double>(i) * width;
        const double hi = std::max(lo, std::min(lo + width, maxMagnitude));
        const double power = count * meanSquare(lo, hi);
        signal += power;
        if (amax <= 0.0) {
            noise += power;
            clipped += count;
        } else if (hi <= amax) {
            noise += count * roundingError(lo, hi, step);
        } else if (lo >= amax) {
            noise += count * clippingError(lo, hi, amax);
            clipped += count;
        } else {
            const double inside = (amax - lo) / (hi - lo);
            noise += count * (inside * roundingError(lo, amax, step) + (1.0 - inside) * clippingError(amax, hi, amax));
            clipped += count * (1.0 - inside);
        }
    }
    const double n = static_cast<double>(total);
    e.clippedFraction = clipped / n;
    e.signalPower = signal / n;
    e.noisePower = noise / n;
    if (signal <= 0.0) return e;
    e.sqnrDb = noise <= 0.0 ? ExpectedQuantization::kMaxSqnrDb
                            : std::min(ExpectedQuantization::kMaxSqnrDb, 10.0 * std::log10(signal / noise));
    return e;
}

}  // namespace ql
