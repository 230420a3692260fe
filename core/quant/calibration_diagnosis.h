#pragma once
// Why a calibration may cost accuracy, per quantized tensor, from the histograms the calibration already kept
// (no new pass over the data): for the amax in use and for the amax of every method, the share of values it
// clips and the SQNR the quantization is expected to give (expected_error.h). The calib-* lint rules
// (core/lint/rules/calib_*.cpp) turn these numbers into findings; `--method auto` picks the best of them.
//
// The tensors are those the INT8 layers of the plan quantize (the activation Q/DQ edges of placeQdq), each
// with the amax in use: the plan's per-tensor method override, else the calibration's.
//
// Outlier channels (ChannelSpread, from the calibration's max |x| per channel): one per-tensor scale serves every
// channel, so a few channels whose range dwarfs the others' leave the typical channel a handful of INT8 steps (or
// none). The ratio compares the largest channel range to the median one (channels that held only zeros are left
// out); the SQNR lost is that of the median channel, its values taken as spread evenly over its range r: under its
// own step (r / 127, per-channel scales) it is expected to get 20 log10(2 * 127) = 48.1 dB; under the shared step
// (amax / 127) 20 log10(2 * 127 * r / amax), at least 0 dB (every value rounds to 0) and at most 48.1 dB (a channel
// wider than amax clips instead). The loss is the difference: 20 log10(amax / r) capped at 48.1 dB. Real
// distributions are not even, but both terms move together, so the difference holds while the shared step stays
// below the channel's typical magnitude.
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "core/quant/calibration.h"
#include "core/quant/expected_error.h"
#include "core/quant/precision_plan.h"

namespace ql {

struct MethodQuality {
    CalibrationMethod method = CalibrationMethod::Entropy;
    float amax = 0.0f;
    ExpectedQuantization expected;
};

// How the channels of a quantized tensor compare under its one scale (see above).
struct ChannelSpread {
    static constexpr size_t kListed = 8;  // outlier channels named, at most

    int64_t axis = 0;          // TensorRange::channelAxis
    int64_t channels = 0;      // measured
    int64_t deadChannels = 0;  // held only zeros: not in the median
    float median = 0.0f;       // the median range of the other channels (the lower middle one)
    float largest = 0.0f;      // the largest channel range
    double ratio = 1.0;        // largest / median
    // Channels whose range is at least DiagnosisThresholds::kOutlierChannelRatio times the median, largest first
    // (at most kListed), and how many there are.
    std::vector<int64_t> outliers;
    int64_t outlierCount = 0;
    int64_t clippedChannels = 0;  // channels whose range exceeds the amax in use
    double medianSteps = 0.0;     // the median channel's range in INT8 steps of the amax in use: 127 * median / amax
    double sqnrLossDb = 0.0;      // the median channel's expected SQNR under its own scale minus under the shared one
};

// The median channel's expected SQNR under its own INT8 step (values spread evenly over its range): 48.1 dB.
double ownScaleSqnrDb(int levels = 128);
// `range` (max |x| per channel, TensorRange::channelAmax) under one scale of `amax`; nullopt with fewer than two
// channels that held a non-zero value.
std::optional<ChannelSpread> channelSpread(const std::vector<float>& range, int64_t axis, float amax, int levels = 128);

struct TensorDiagnosis {
    ValueId value = kNoId;
    std::string tensor;
    NodeId layer = kNoId;                                   // the first INT8 layer that quantizes it
    std::vector<NodeId> layers;                             // every INT8 layer that quantizes it, `layer` first
    CalibrationMethod method = CalibrationMethod::Entropy;  // where `amax` comes from
    bool methodFromPlan = false;                            // a per-tensor override of the plan chose it
    float amax = 0.0f;                                      // in use
    float min = 0.0f, max = 0.0f;                           // observed
    int64_t nonFinite = 0;
    int64_t samples = 0;  // the samples the statistics come from
    // From the histogram; absent when the calibration kept none (files written before histograms were kept).
    std::optional<ExpectedQuantization> expected;
    std::vector<MethodQuality> methods;  // kAmaxMethods order; empty without per-method amax and histogram
    // Absent when the calibration kept no channel ranges for it (older files, rank < 2, too many channels).
    std::optional<ChannelSpread> channels;
    // The method of `methods` with the highest expected SQNR (ties: earlier in kAmaxMethods).
    const MethodQuality* best() const;
};

struct CalibrationDiagnosis {
    CalibrationConfig config;              // the calibration's (its percentile names the percentile method)
    int64_t samples = 0;                   // of the whole calibration
    std::vector<TensorDiagnosis> tensors;  // graph value order
    // The amax in use of every activation the calibration measured, quantized by the plan or not: what a scale
    // shared by several tensors (a Concat's) would be made of.
    std::map<ValueId, float> calibratedAmax;
    const TensorDiagnosis* find(const std::string& tensor) const;
};

// The thresholds the calib-* rules apply (docs/lint-rules.md states them).
struct DiagnosisThresholds {
    static constexpr double kClippedFraction = 0.01;  // calib-clipping: at least 1% of the values saturate...
    static constexpr double kSqnrGapDb = 3.0;         // ...and another method is expected to do >= 3 dB better
    static constexpr double kMethodGapDb = 6.0;       // calib-method-gap: another method >= 6 dB better
    static constexpr int64_t kMinSamples = 32;        // calib-few-samples
    // calib-outlier-channels: the largest channel range is at least 100x the median one, so under the per-tensor
    // scale the median channel keeps at most ~1.3 INT8 steps (40 dB below its own scale's SQNR).
    static constexpr double kOutlierChannelRatio = 100.0;
};

// `plan`'s effective precisions decide which tensors are quantized.
Result<CalibrationDiagnosis> diagnoseCalibration(const Graph& graph, const PrecisionPlan& plan,
                                                 const CalibrationResult& calibration);

// {"tensor", "layer", "method", "amax", "min", "max", "samples", "clipped", "expected_sqnr_db",
//  "methods": {"minmax": {"amax", "clipped", "expected_sqnr_db"}, ...},
//  "channels": {"axis", "count", "dead", "median_amax", "max_amax", "ratio", "outliers": [largest first],
//               "outlier_count", "clipped_channels", "median_steps", "sqnr_loss_db"}} per tensor.
nlohmann::json diagnosisToJson(const Graph& graph, const CalibrationDiagnosis& diagnosis);

}  // namespace ql
