#pragma once
// The quantization error a symmetric INT8 range [-amax, amax] is expected to cause on the values a histogram
// counted, without running the model: what the calibration diagnosis reports per tensor and method, and what
// `--method auto` minimises.
//   Values with |x| <= amax round to the nearest of `levels` steps (step = amax / (levels - 1)): error
//   step^2 / 12 (uniform rounding error), or x^2 where x rounds to zero (|x| < step / 2).
//   Values with |x| > amax saturate to amax: error (|x| - amax)^2.
// Each bin's values are taken as spread evenly over the bin; a bin that amax cuts is split at amax.
#include <cstdint>
#include <limits>

#include "core/quant/histogram_observer.h"

namespace ql {

struct ExpectedQuantization {
    double clippedFraction = 0.0;  // share of the values beyond amax (saturated)
    double signalPower = 0.0;      // mean of x^2
    double noisePower = 0.0;       // expected mean of (x - q(x))^2
    // 10 log10(signal / noise), capped at kMaxSqnrDb (a range that represents the values exactly); 0 when the
    // histogram holds no non-zero value.
    double sqnrDb = 0.0;
    static constexpr double kMaxSqnrDb = 120.0;
};

// `absolute`: a histogram of |x| (foldToAbsolute of a signed one). amax >= 0; levels: 128 for INT8.
// `maxMagnitude`: the largest |x| seen, where known: the last bin's values lie below it, so an amax at or above
// it clips nothing (the histogram's bins can reach past the data).
ExpectedQuantization expectedQuantization(const Histogram& absolute, double amax, int levels = 128,
                                          double maxMagnitude = std::numeric_limits<double>::infinity());

}  // namespace ql
