#pragma once
// What the user asks the window to do in one calibration run (the CLI's `calibrate` followed by `compare`
// accumulated and isolated): the data and how to read it, the method, and what to measure afterwards.
#include <cstdint>
#include <string>
#include <vector>

#include <memory>
#include "core/data/open_data.h"
#include "core/lint/trt_version.h"
#include "core/quant/calibration.h"
#include "core/quant/calibrator.h"

namespace ql::ui {

struct CalibrationRequest {
    std::vector<DataSpec> data;  // calibration data, as the CLI's --data (per input, or one .npz for all)
    CalibrationConfig config;
    int64_t samples = 0;    // 0: all samples of the data
    int64_t batchSize = 8;  // used when the model's batch axis is not fixed
    int threads = 1;

    bool analyze = true;                   // measure the per-layer error after calibrating
    std::vector<DataSpec> evaluationData;  // empty: the calibration data
    std::string labelsPath;                // class labels of the evaluation data (.npy), optional
    int64_t evaluationSamples = 0;         // 0: all
    size_t outputPairCap = 20000;          // FP32-vs-quantized output values kept for the scatter plot
    // Whose INT8 fallbacks and FP16 guard the analysed plan goes through once the new calibration is known (the
    // runner sets the document's).
    TrtVersion trtVersion = TrtVersion::Trt10;
    TrtTyping trtTyping = TrtTyping::Strong;  // the document's, so the measured plan is the document's
    // Set: measure the error with this calibration instead of calibrating again (Quantize > Measure Again); the
    // calibration data is then only read as evaluation data when there is no other.
    std::shared_ptr<const CalibrationResult> calibration;
};

}  // namespace ql::ui
