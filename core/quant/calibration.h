#pragma once
// Calibration of a whole model: runs the executor over the calibration data, observes every float
// tensor (graph inputs and node outputs) with one signed histogram observer each (calibrationObserver:
// extremes and a 2 * bins histogram, one pass per batch, split over the threads for large tensors, no copy
// of the tensor; memory is per tensor, never per sample), and turns the statistics into the amax of every
// method; the configured one is the tensor's amax. Outputs of copies (Reshape, Flatten, ...) share their
// input's statistics; Relu / Clip outputs are derived exactly from their input's while the ranges agree.
// Every tensor an INT8 layer may quantize (an input of a layer placeQdq writes Q/DQ for) also gets its largest |x| per
// channel (ChannelRangeObserver, one more pass at a few percent of the histogram's cost; copies and Relu / Clip outputs
// too, since their channel axis may differ), which the diagnosis reads for outlier channels.
// Tensors hidden inside the executor's fused groups may be counted on fewer samples (fullStatistics).
// Weights of Conv/ConvTranspose/Gemm/MatMul get per-channel amax.
// Long work in the shape of STYLE rule 8: progress callback, and a stop token checked once per batch.
#include <cstdint>
#include <functional>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/status.h"
#include "core/data/data_source.h"
#include "core/quant/calibrator.h"
#include "core/quant/input_shapes.h"

namespace ql {

// Called after each batch with the samples done so far and the samples to do in total.
using ProgressFn = std::function<void(int64_t done, int64_t total)>;

struct TensorRange {
    std::string name;  // the value's name
    float amax = 0.0f;
    // The method amax comes from: the calibration's, or per tensor the one `auto` chose (never Auto itself).
    CalibrationMethod method = CalibrationMethod::Entropy;
    float min = 0.0f, max = 0.0f;                           // observed extremes, for reports and plots
    int64_t nonFinite = 0;                                  // NaN/Inf values seen (ignored by the statistics)
    std::optional<MethodAmax> amaxByMethod = std::nullopt;  // absent when read from a file written without it
    Histogram histogram{};  // signed, at most kPlotHistogramBins bins; no bins when absent (older files)
    // Samples the statistics come from when fewer than the calibration's (a tensor fused away, see
    // CalibrationOptions::fullStatistics); 0: all of them.
    int64_t samples = 0;
    // The largest |x| of each channel along `channelAxis` (channel_range_observer.h: the axis its quantized consumer
    // reduces over), for the diagnosis of outlier channels. Empty when not measured: no layer that may quantize it
    // reads it, rank < 2, more than ChannelRangeObserver::kMaxChannels channels or a channel count that changed
    // between batches, a subgraph tensor, a file written before it existed.
    std::vector<float> channelAmax{};
    int64_t channelAxis = 0;

    float scale() const { return amax / 127.0f; }  // the INT8 scale of the symmetric range
};

// Bins of TensorRange::histogram: the observer's 2 * bins merged down (4096 -> 512 by default), enough
// to plot and small in CALIB.json.
inline constexpr size_t kPlotHistogramBins = 512;

struct WeightRange {
    std::string name;  // the initializer
    NodeId layer = kNoId;
    int64_t axis = 0;         // the output-channel axis (see weight_ranges.h)
    std::vector<float> amax;  // one per channel
};

struct CalibrationResult {
    CalibrationConfig config;
    int64_t samples = 0;                   // samples actually run
    std::vector<TensorRange> activations;  // in graph value order
    std::vector<WeightRange> weights;      // in node order
    // Tensors inside the bodies of If/Loop/Scan nodes, named by where they are ("If_0/then_branch/x"; a loop body's
    // tensors over every iteration; its own inputs too: a Loop's state), sorted by name. The ranges of planned bodies
    // (PrecisionPlan::bodies, body_calibration.h).
    std::vector<TensorRange> subgraphActivations;
    // The shapes the graph inputs had in the batches run (input_shapes.h): the TensorRT optimization profile of a
    // dynamic input. Empty when the scales came from a file without them (older CALIB.json, a TensorRT cache).
    std::vector<InputShapeRange> inputShapes;

    // The range of activation `name`, or null.
    const TensorRange* activation(std::string_view name) const;
};

struct CalibrationOptions {
    int64_t maxSamples = 0;  // 0: all samples of the data
    int64_t batchSize = 8;   // used when the model's batch axis is not fixed
    int threads = 1;
    // Where activation statistics are counted: on a worker thread while the run goes on (Background), or by
    // the run's threads after each node (Inline). Auto: Background when `threads` leaves a core idle. The
    // results are the same either way.
    enum class Counting { Auto, Inline, Background };
    Counting counting = Counting::Auto;
    // The executor fuses a Conv with the activations (and residual Add) after it, as TensorRT does; the tensors
    // inside such a group (the Conv's output before its activation) exist only when a run splits the group,
    // which costs about a third of a light network's inference. TensorRT's fused engine never reads their
    // scales (a calibration cache still lists them), so by default they are counted on 1/kFusedAwayShare of the
    // samples (at least kFusedAwaySamples), spread evenly over the run (data sorted by class would bias the
    // first ones), and the other runs stay fused. True: on every sample.
    bool fullStatistics = false;
    static constexpr int64_t kFusedAwayShare = 16;
    static constexpr int64_t kFusedAwaySamples = 8;
};

Result<CalibrationResult> calibrate(const Graph& graph, DataSource& data, const CalibrationConfig& config,
                                    const CalibrationOptions& options = {}, const ProgressFn& progress = {},
                                    std::stop_token stop = {});

// Per-channel amax of every weight that Conv, ConvTranspose, Gemm and MatMul read from a constant, the
// weights shared out over `threads` threads.
Result<std::vector<WeightRange>> weightRanges(const Graph& graph, int threads = 1);

}  // namespace ql
