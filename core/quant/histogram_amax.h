#pragma once
// The histogram-based amax methods, as plain functions of an absolute histogram (see calibrator.h).
#include "core/quant/histogram_observer.h"

namespace ql {

// The upper edge of the first bin at which the cumulative count reaches `percentile` % of all values.
double percentileAmax(const Histogram& histogram, double percentile);

// TensorRT's entropy (KL-divergence) calibration; the exact algorithm is described in histogram_amax.cpp.
double entropyAmax(const Histogram& histogram, int startBin, int levels);

// The bin centre that, used as amax, minimises the expected squared quantization error of all values,
// each bin's values taken at its centre (as ModelOpt's _compute_amax_mse). Candidates: bins startBin up to the last
// non-empty bin.
double mseAmax(const Histogram& histogram, int startBin, int levels);

}  // namespace ql
