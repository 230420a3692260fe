#pragma once
// The work of one tune run, without Qt threading: opens the evaluation data and labels (checked before the long
// work starts), then runs `tune` from the start plan with TensorRT's fallbacks as policy, as the CLI does
// (app/cli/tune_command.cpp). Runs on a worker thread (TuneRunner).
#include <memory>
#include <stop_token>

#include "core/model/model.h"
#include "core/quant/calibration.h"
#include "core/quant/tuning.h"
#include "ui/tuning/tune_request.h"

namespace ql::ui {

struct TuneOutcome {
    Status status;  // ok, cancelled, or the error (naming the file)
    std::shared_ptr<const TuneReport> report;
};

TuneOutcome runTuneJob(const Model& model, const PrecisionPlan& start, const CalibrationResult& calibration,
                       const TuneRequest& request, const TuneProgressFn& progress, std::stop_token stop);

}  // namespace ql::ui
