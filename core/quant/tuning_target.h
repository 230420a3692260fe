#pragma once
// What `tune` aims for, and how a set of model outputs scores against it.
//   accuracy-drop<=X    top-1 accuracy of the first output against labels: FP32 minus quantized, in points
//   top1-agreement>=X   share (%) of samples whose top-1 class matches FP32's
//   output-sqnr>=X      SQNR (dB) of the worst float output against FP32
//   metric>=X           the user's metric (a number, higher is better) of the quantized outputs
//   metric-drop<=X      the user's metric of the FP32 outputs minus that of the quantized outputs
// Every target is scored as a number where higher is better (score()), so the tuner compares plans one way.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/status.h"
#include "core/exec/executor.h"
#include "core/model/graph.h"
#include "core/quant/error_metrics.h"

namespace ql {

// The user's metric of a model's outputs: every graph output, the evaluated samples in order along axis 0, and
// `sampleIndices`, the index into the data (axis 0) of each row: tune evaluates subsets, so a metric that matches
// outputs to ground truth must know which samples it got. Higher is better.
using OutputMetricFn =
    std::function<Result<double>(const NamedTensors& outputs, const std::vector<int64_t>& sampleIndices)>;

class TuneTarget {
public:
    enum class Kind { AccuracyDrop, Top1Agreement, OutputSqnr, Metric, MetricDrop };

    // "accuracy-drop<=0.5", "top1-agreement>=99", "output-sqnr>=30", "metric>=0.8", "metric-drop<=0.5".
    static Result<TuneTarget> parse(std::string_view text);

    Kind kind() const { return mKind; }
    double threshold() const { return mThreshold; }
    std::string text() const;  // as parsed, e.g. "accuracy-drop<=0.5"
    std::string name() const;  // "accuracy-drop"
    bool needsLabels() const { return mKind == Kind::AccuracyDrop; }
    // Reads the first output's top-1 class (agreement with FP32, accuracy against labels).
    bool comparesTopClass() const { return mKind == Kind::AccuracyDrop || mKind == Kind::Top1Agreement; }
    bool needsMetric() const { return mKind == Kind::Metric || mKind == Kind::MetricDrop; }
    // The value the target reads (a drop for the *-drop kinds), from a score.
    double valueOf(double score) const { return lowerIsBetter() ? -score : score; }
    bool holds(double score) const;
    bool lowerIsBetter() const { return mKind == Kind::AccuracyDrop || mKind == Kind::MetricDrop; }

private:
    Kind mKind = Kind::OutputSqnr;
    double mThreshold = 0.0;
};

// The FP32 side a score compares with, computed once per set of samples.
struct ReferenceOutputs {
    NamedTensors outputs;                // FP32 outputs, all samples along axis 0
    std::vector<int64_t> sampleIndices;  // the data index of each row of `outputs` (and of a plan's outputs)
    std::vector<int64_t> labels;         // one per sample, or empty
    double metric = 0.0;                 // the user's metric of `outputs` (metric targets)
    double accuracy = 0.0;               // top-1 accuracy of `outputs` against labels, in [0, 1]
};

// Output SQNRs are capped at +-200 dB (identical outputs: +200), as JSON has no infinity.
inline constexpr double kOutputSqnrCapDb = 200.0;
// The error of each float output of a model against the same output of a reference run, accumulated over batches.
// output-sqnr is the worst output's: pooled over all outputs, a large output (an RNN's state) would hide a small
// one (its probability), as it did on Silero VAD (pooled 26.7 dB, the probability 18.7 dB).
class OutputErrors {
public:
    // `reference` and `changed`: the same outputs in the same order and shapes.
    void add(const NamedTensors& reference, const NamedTensors& changed);
    // The lowest SQNR (dB) of the float outputs, capped; the cap without any.
    double worstSqnrDb() const;

private:
    std::vector<ErrorAccumulator> mByOutput;  // by output index; non-float outputs stay empty
};
double cappedSqnrDb(const ErrorMetrics& metrics);
// The SQNR (dB) of the worst float output of `quantized` against `reference`, capped.
double outputSqnrDb(const NamedTensors& reference, const NamedTensors& quantized);
// The share of `classes` equal to `labels` (index by index), in [0, 1]; 0 without classes.
double top1Accuracy(const std::vector<int64_t>& classes, const std::vector<int64_t>& labels);

// Whether `target` means something for `graph`: a top-1 target needs a class vector first, or it would be met by
// the same element of a detector's scores staying the largest (a tune "at 100 %" that says nothing).
Status checkTargetApplies(const TuneTarget& target, const Graph& graph);

// Higher is better: -drop for the *-drop kinds, the value itself otherwise.
Result<double> scoreOutputs(const TuneTarget& target, const ReferenceOutputs& reference, const NamedTensors& quantized,
                            const OutputMetricFn& metric);

}  // namespace ql
