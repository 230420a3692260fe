#pragma once
// Where Q/DQ pairs go so TensorRT fuses them (TensorRT Developer Guide 8.x "Q/DQ Layer-Placement
// Recommendations"; ModelOpt's modelopt/onnx/quantization): which tensor feeding which node input is quantized,
// with which scales and axis, and why. The one source of truth for both the export (on the prepared graph) and
// the INT8 simulation (on the original graph, simulation.h): constants are seen
// through Identity chains, so both graphs give the same edges and bit-identical scales.
//   - INT8 Conv / ConvTranspose / Gemm / MatMul: the activation input(s) per tensor; constant weights per
//     channel (Conv axis 0, Gemm transB ? 0 : 1, MatMul last axis), ConvTranspose per tensor unless the
//     options ask for the target version's axis (TensorRT 8.x: 0, 10.x: 1). Biases stay float.
//   - a residual Add after an INT8 weighted layer: the skip input only, never the layer->Add edge.
//   - Concat: every quantized tensor of a Concat (inputs and output) uses one scale, the max.
//   - INT8 AveragePool / GlobalAveragePool / MaxPool / GlobalMaxPool: the input per tensor.
//   - FP16/FP32 layers get nothing; an INT8 layer with an input lacking a calibrated scale falls back.
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/common/status.h"
#include "core/model/graph.h"
#include "core/quant/calibration.h"
#include "core/quant/precision_plan.h"

namespace ql {

struct QdqOptions {
    bool perChannelConvTranspose = false;  // false: one scale for the whole ConvTranspose weight
    int tensorRtMajor = 10;                // chooses the ConvTranspose per-channel axis: 8 -> 0, 10 -> 1
    bool int8Weights = true;               // false: float weights behind a QuantizeLinear->DequantizeLinear pair
    // Where the edges go without their scales (realized_precision.h): weights are not read (their edges have no
    // scales) and, with `assumeCalibrated`, every activation counts as calibrated (a plan before its calibration).
    bool weightScales = true;
    bool assumeCalibrated = false;
};

// Effective precision by node name; nodes not listed run FP32.
using PrecisionByName = std::unordered_map<std::string, Precision>;
// Calibrated amax by activation tensor name.
using AmaxByName = std::unordered_map<std::string, float>;

// The INT8 scale of a symmetric range: amax / 127, with amax floored at 1e-8 (TRT-QDQ-SCALE-POSITIVE: an all-zero
// channel, or a non-finite amax, must still get a positive scale).
float int8Scale(float amax);

// The plan's effective precision of every node of `graph`.
PrecisionByName effectivePrecisions(const Graph& graph, const PrecisionPlan& plan);
// The calibration's activation amax, with the plan's per-tensor method overrides (PrecisionPlan::tensorMethods)
// applied; an override of a tensor the calibration has no amax_by_method for is an error naming it.
Result<AmaxByName> activationAmax(const CalibrationResult& calibration, const PrecisionPlan& plan);

struct QdqEdge {
    NodeId consumer = kNoId;
    int32_t input = 0;  // input slot of `consumer`
    ValueId tensor = kNoId;
    bool weight = false;
    int64_t axis = 1;           // written on every Q/DQ; meaningful when scales.size() > 1
    std::vector<float> scales;  // amax / 127, floored to stay positive
    std::string reason;
    // A weight whose layer is followed by a BatchNormalization the export folds (batchnorm_fold.h): that
    // BatchNormalization's factor per output channel; the scales are those of the folded weight. Empty otherwise.
    std::vector<float> batchNormFold;
};

struct LayerDecision {
    std::string layer;
    std::string op;
    Precision precision = Precision::Fp32;
    std::string reason;
    std::string unscaledInput;  // the tensor whose missing calibrated scale made an INT8 layer fall back, or empty
};

struct QdqPlacement {
    std::vector<QdqEdge> edges;
    std::vector<LayerDecision> layers;  // one per node, in graph order
};

// The ops placeQdq writes Q/DQ for when INT8 (weighted layers, the residual Add, Concat, pooling): they run INT8
// exactly when they get it.
bool placesOwnQdq(const Node& node);

Result<QdqPlacement> placeQdq(const Graph& graph, const PrecisionByName& precisions, const AmaxByName& amax,
                              const QdqOptions& options);
// The same with the precisions by NodeId (a node past the end: FP32), without a map of 10^5 names on big graphs.
Result<QdqPlacement> placeQdq(const Graph& graph, std::vector<Precision> precisions, const AmaxByName& amax,
                              const QdqOptions& options);

}  // namespace ql
