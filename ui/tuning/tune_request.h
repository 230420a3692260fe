#pragma once
// What the user asks Quantize > Tune... to do (the CLI's `tune` options): the target, the budget, the fallback
// precision and the evaluation data, and the objective (accuracy, or latency on a GPU). The start plan and the
// calibration are the document's at the start.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/data/open_data.h"
#include "core/engine/latency_model.h"
#include "core/lint/trt_version.h"
#include "core/quant/precision_plan.h"
#include "core/quant/tuning.h"
#include "core/quant/tuning_target.h"

namespace ql::ui {

struct TuneRequest {
    TuneTarget target;
    Precision fallback = Precision::Fp16;
    bool keepPlanKeptOut = true;  // TuneOptions::keepPlanKeptOut: the user's FP16 / FP32 layers stay so
    int64_t maxTrials = 0;        // 0: no limit
    double maxSeconds = 0.0;      // 0: no limit
    std::vector<DataSpec> data;   // evaluation data, as the CLI's --data
    std::string labelsPath;       // class labels (.npy); needed by accuracy-drop
    int64_t samples = 0;          // 0: all
    int64_t subsetSamples = 0;    // 0: the tuner's default (a quarter, at least 64)
    int64_t batchSize = 8;
    int threads = 1;
    TrtVersion trtVersion = TrtVersion::Trt10;  // whose INT8 fallbacks the tuned plan must respect
    TrtTyping trtTyping = TrtTyping::Strong;    // and whose typing decides what fuses (realized_precision.h)
    // Latency: among plans that meet the target, the fastest predicted on `gpu` (tune --objective latency).
    TuneObjective objective = TuneObjective::Accuracy;
    // The GPU plans are timed on (the project's profile, or a row of the GPU table); required by the latency
    // objective, ignored by the accuracy one.
    std::shared_ptr<const GpuProfile> gpu;
};

}  // namespace ql::ui
