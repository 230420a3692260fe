#pragma once
// The work of one calibration run, without Qt threading: opens the data (every path is checked before the
// long work starts), calibrates, then measures the error of the plan accumulated and isolated. Runs on a
// worker thread (CalibrationRunner); reports one overall fraction across the phases, weighted by their cost.
#include <functional>
#include <memory>
#include <stop_token>
#include <string>

#include "core/model/model.h"
#include "core/quant/analysis.h"
#include "core/quant/calibration.h"
#include "core/quant/precision_plan.h"
#include "ui/calibration/calibration_request.h"

namespace ql::ui {

struct CalibrationOutcome {
    Status status;  // ok, cancelled, or the error (naming the file)
    std::shared_ptr<const CalibrationResult> calibration;
    // Null when the request asked for no analysis.
    std::shared_ptr<const AnalysisReport> accumulated, isolated;
    PrecisionPlan measured;  // the plan the analyses measured (the TensorRT policies of the new calibration applied)
};

// fraction in [0, 1] over all phases, and the current phase in words ("Calibrating: 96 of 256 samples").
using JobProgressFn = std::function<void(double fraction, const std::string& phase)>;

// Opens the data of a request (every file checked against the model's inputs); `what` names it in errors
// ("calibration data"). Shared with the tune job.
Result<std::unique_ptr<DataSource>> openData(const Graph& graph, const std::vector<DataSpec>& specs,
                                             const std::string& what);

CalibrationOutcome runCalibrationJob(const Model& model, const PrecisionPlan& plan, const CalibrationRequest& request,
                                     const JobProgressFn& progress, std::stop_token stop);

}  // namespace ql::ui
