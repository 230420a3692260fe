#pragma once
// Why a calibration may cost accuracy, per quantized tensor, from the histograms the calibration already kept
// (no new pass over the data): for the amax in use and for the amax of every method, the share of values it
// clips and the SQNR the quantization is expected to give (expected_error.h). The calib-* lint rules
// (core/lint/rules/calib_*.cpp) turn these numbers into findings; `--method auto` picks the best of them.
//
// The tensors are those the INT8 layers of the plan quantize (the activation Q/DQ edges of placeQdq), each
// with the amax in use: the plan's per-tensor method override, else the calibration's.
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

struct TensorDiagnosis {
    ValueId value = kNoId;
    std::string tensor;
    NodeId layer = kNoId;                                   // the first INT8 layer that quantizes it
    CalibrationMethod method = CalibrationMethod::Entropy;  // where `amax` comes from
    bool methodFromPlan = false;                            // a per-tensor override of the plan chose it
    float amax = 0.0f;                                      // in use
    float min = 0.0f, max = 0.0f;                           // observed
    int64_t nonFinite = 0;
    int64_t samples = 0;  // the samples the statistics come from
    // From the histogram; absent when the calibration kept none (files written before histograms were kept).
    std::optional<ExpectedQuantization> expected;
    std::vector<MethodQuality> methods;  // kAmaxMethods order; empty without per-method amax and histogram
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
};

// `plan`'s effective precisions decide which tensors are quantized.
Result<CalibrationDiagnosis> diagnoseCalibration(const Graph& graph, const PrecisionPlan& plan,
                                                 const CalibrationResult& calibration);

// {"tensor", "layer", "method", "amax", "min", "max", "samples", "clipped", "expected_sqnr_db",
//  "methods": {"minmax": {"amax", "clipped", "expected_sqnr_db"}, ...}} per tensor.
nlohmann::json diagnosisToJson(const Graph& graph, const CalibrationDiagnosis& diagnosis);

}  // namespace ql
