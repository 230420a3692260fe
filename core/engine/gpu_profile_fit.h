#pragma once
// Learning the user's GPU from engine reports (issue 28, item 3): the measured per-layer times of real engines are
// laid onto the predicted layers of the same models, and the efficiency and overhead terms of each cost class
// (latency_model.h) are fitted so the predicted times match them. docs/performance-model.md ("Fitting a GPU
// profile") gives the method and how well it did.
//
// Matching: a predicted layer and an engine layer that compute a common ONNX compute node (engine_mapping.h; Q/DQ,
// reshapes and casts do not count) are one observation, and so is every layer linked to them that way (a fusion one
// side makes and the other does not becomes one observation with the times summed on each side). A reformat joins
// the observation of the layer it feeds, on either side.
//
// Fit: the terms of every class, in log space, minimize
//   sum over observations (ln predicted - ln measured)^2 + sum over reports w (ln predicted total - ln measured
//   total)^2 + sum over terms ((ln term - ln default) / prior)^2
// by Levenberg-Marquardt within physical bounds: a class the reports say little about keeps its defaults. Per
// precision likewise: INT8 layers are timed by the INT8 kernels' own terms (their share of the INT8 peak, memory
// efficiency, overhead) and every other layer by the float ones, so each set is fitted from its own layers and a
// precision the reports did not run keeps its terms as they started.
#include <optional>
#include <string>
#include <vector>

#include "core/common/status.h"
#include "core/engine/engine_mapping.h"
#include "core/engine/engine_prediction.h"
#include "core/engine/engine_report.h"
#include "core/engine/latency_model.h"

namespace ql {

// Predicted layers and engine layers that compute the same nodes, and the time the engine measured for them.
struct FitObservation {
    std::vector<size_t> predicted;  // indices into the prediction's layers
    std::vector<size_t> measured;   // indices into the report's layers
    double measuredMs = 0.0;
};

// One engine report laid onto the prediction of its model.
struct FitSample {
    FitReportFiles files;  // what it was read from, for the profile's "fit"
    EnginePrediction prediction;
    std::vector<FitObservation> observations;  // those the engine measured a time for
    double measuredTotalMs = 0.0;              // every layer of the report, matched or not
};

// `report` must have a profile; `mapping` maps it onto the graph `prediction` was made from.
FitSample matchPrediction(FitReportFiles files, EnginePrediction prediction, const EngineReport& report,
                          const EngineMapping& mapping);

// The precision each compute node ran in: the engine's, where a layer holding the node says (its INT8, FP16 or FP32
// compute precision), `fallback`'s elsewhere. The fit times the engine that was built, not the one planned.
PrecisionPlan planFromEngine(const Graph& graph, const EngineReport& report, const EngineMapping& mapping,
                             PrecisionPlan fallback);

// One report's sample: the engine of `graph` predicted for `target` with the precisions the report ran
// (planFromEngine over `fallback`), matched to the report. An error naming the files when the report has no
// profile or is probably of another model (engine_coverage.h: it maps under half of the nodes or layers).
Result<FitSample> fitSample(const Graph& graph, const PrecisionPlan& fallback, const EngineReport& report,
                            const TrtTarget& target, FitReportFiles files);

// How `profile` times the samples: per observation and per report (Spearman, errors, totals).
FitQuality fitQuality(const GpuProfile& profile, const std::vector<FitSample>& samples);

// `start` with the terms fitted to `samples` and `fit` set to the quality reached. With two or more samples the fit
// is also repeated leaving each out in turn, and that sample's total predicted by the others' fit (the checked error
// predictions say). An error when no sample has an observation.
Result<GpuProfile> fitGpuProfile(const GpuProfile& start, const std::vector<FitSample>& samples);

// The fitted terms alone, without the quality and the leave-one-out check.
GpuProfile fitTerms(const GpuProfile& start, const std::vector<FitSample>& samples);

// Spearman's rank correlation (ties share their mean rank); nullopt for fewer than 3 pairs or no spread.
std::optional<double> spearmanCorrelation(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace ql
