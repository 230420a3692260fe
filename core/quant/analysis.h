#pragma once
// Per-layer quantization error: runs FP32 and the simulated precision plan (simulation.h) on the same
// samples and compares every node output.
//   Accumulated: the whole plan applied; a layer's error includes everything upstream.
//   Isolated:    one layer at a time (its sensitivity): each non-FP32 node is run on the FP32 activations
//                with only its own inputs quantized, so the FP32 model runs once per batch, not once per node.
// Output metrics always come from the whole plan, in both modes (an isolated run's layer rows are each layer alone,
// not the INT8 model): SQNR, cosine and max error of every graph output; top-1 agreement of each class vector
// (output_kind.h), and with labels the accuracy of the first output.
// Long work in the shape of STYLE rule 8: progress callback, stop token checked once per batch.
#include <cstdint>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "core/quant/calibration.h"
#include "core/quant/error_metrics.h"
#include "core/quant/output_groups.h"
#include "core/quant/output_kind.h"
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

// A layer inside an If/Loop/Scan body (body_analysis.h).
struct BodyLayerError {
    std::string body;                       // where: "route/then_branch/", nested "route/then_branch/Loop_1/body/"
    std::string node;                       // the body's node
    std::string op;                         // its op type
    std::string output;                     // its output tensor
    Precision precision = Precision::Fp32;  // effective, by the body's plan (FP32 for a body without one)
    ErrorMetrics metrics;
};

struct OutputAgreement {
    int64_t samples = 0;  // samples compared; 0 when the output has no per-sample rows or is no class vector
    double top1Agreement = 0.0;
    bool hasLabels = false;
    double accuracyFp32 = 0.0, accuracyQuant = 0.0;
};

// One element of a graph output: its FP32 value and the value the quantized plan gives.
struct OutputPair {
    float fp32 = 0.0f;
    float quantized = 0.0f;
};

// One graph output, FP32 against the whole plan (whatever the mode).
struct OutputError {
    ValueId output = kNoId;
    OutputKind kind = OutputKind::Values;
    std::string kindWhy;  // what decided the kind of an [N, C] output (output_kind.h), or empty
    ErrorMetrics metrics;
    OutputAgreement agreement;  // top-1 against FP32 (and labels for the first output); class vectors only
    // At most AnalysisOptions::outputPairCap elements of this output (whole plan), a uniform sample of all of them
    // (seeded, so the same run gives the same pairs), for an FP32-vs-quantized scatter plot of any output.
    std::vector<OutputPair> pairs = {};
};

struct AnalysisReport {
    AnalysisMode mode = AnalysisMode::Accumulated;
    int64_t samples = 0;
    // Accumulated: every float node output; isolated: the outputs of non-FP32 nodes. Worst SQNR first,
    // ties in graph order.
    std::vector<LayerError> layers;
    // The same inside If/Loop/Scan bodies (accumulated: every body; isolated: the planned ones), in graph order
    // (body_analysis.h): a plot places them after their control-flow node.
    std::vector<BodyLayerError> bodyLayers;
    OutputAgreement outputs;                // of the first output (outputErrors[0].agreement), kept for its readers
    std::vector<OutputError> outputErrors;  // every float graph output, in graph order
    // The first output's pairs (outputErrors[0].pairs), kept for its readers; an older project has only these.
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
    size_t outputPairCap = 0;                           // OutputError::pairs to keep per output; 0: none
    std::vector<OutputChannelGroup> outputGroups = {};  // e.g. a detector's boxes and scores; empty: none
};

// The output with the lowest SQNR (the first on ties), null without outputs: what a report headlines.
const OutputError* worstOutput(const AnalysisReport& report);

Result<AnalysisReport> analyzeQuantization(const Graph& graph, const PrecisionPlan& plan,
                                           const CalibrationResult& calibration, DataSource& data,
                                           const AnalysisOptions& options, const ProgressFn& progress = {},
                                           std::stop_token stop = {});

}  // namespace ql
