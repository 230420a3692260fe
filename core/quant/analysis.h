#pragma once
// Per-layer quantization error: runs FP32 and the simulated precision plan (simulation.h) on the same
// samples and compares every node output.
//   Accumulated: the whole plan applied; a layer's error includes everything upstream.
//   Isolated:    one layer at a time (its sensitivity): each non-FP32 node is run on the FP32 activations
//                with only its own inputs quantized, so the FP32 model runs once per batch, not once per node.
// Output metrics always come from the whole plan: top-1 agreement of the first graph output between FP32
// and quantized, and with labels the accuracy of both.
// Long work in the shape of STYLE rule 8: progress callback, stop token checked once per batch.
#include <cstdint>
#include <optional>
#include <stop_token>
#include <string_view>
#include <vector>

#include "core/quant/calibration.h"
#include "core/quant/error_metrics.h"
#include "core/quant/output_groups.h"
#include "core/quant/precision_plan.h"

namespace ql {

enum class AnalysisMode { Accumulated, Isolated };
const char* analysisModeName(AnalysisMode mode);  // "accumulated", "isolated"
std::optional<AnalysisMode> parseAnalysisMode(std::string_view text);

struct LayerError {
    NodeId node = kNoId;
    ValueId output = kNoId;
    Precision precision = Precision::Fp32;  // effective
    ErrorMetrics metrics;
};

struct OutputAgreement {
    int64_t samples = 0;  // samples compared; 0 when the first output has no per-sample rows
    double top1Agreement = 0.0;
    bool hasLabels = false;
    double accuracyFp32 = 0.0, accuracyQuant = 0.0;
};

// One element of the first graph output: its FP32 value and the value the quantized plan gives.
struct OutputPair {
    float fp32 = 0.0f;
    float quantized = 0.0f;
};

struct AnalysisReport {
    AnalysisMode mode = AnalysisMode::Accumulated;
    int64_t samples = 0;
    // Accumulated: every float node output; isolated: the outputs of non-FP32 nodes. Worst SQNR first,
    // ties in graph order.
    std::vector<LayerError> layers;
    OutputAgreement outputs;
    // At most AnalysisOptions::outputPairCap elements of the first output (whole plan), a uniform sample of
    // all of them (seeded, so the same run gives the same pairs), for an FP32-vs-quantized scatter plot.
    std::vector<OutputPair> outputPairs;
    // The error of each channel group of the first output (AnalysisOptions::outputGroups), whole plan.
    std::vector<OutputGroupError> outputGroups;
};

struct AnalysisOptions {
    AnalysisMode mode = AnalysisMode::Accumulated;
    int64_t maxSamples = 0;  // 0: all samples
    int64_t batchSize = 8;   // used when the model's batch axis is not fixed
    int threads = 1;
    std::vector<int64_t> labels;                        // one class per sample, or empty
    size_t outputPairCap = 0;                           // AnalysisReport::outputPairs to keep; 0: none
    std::vector<OutputChannelGroup> outputGroups = {};  // e.g. a detector's boxes and scores; empty: none
};

Result<AnalysisReport> analyzeQuantization(const Graph& graph, const PrecisionPlan& plan,
                                           const CalibrationResult& calibration, DataSource& data,
                                           const AnalysisOptions& options, const ProgressFn& progress = {},
                                           std::stop_token stop = {});

}  // namespace ql
