#pragma once
// The precision every node runs in once the plan is written as a Q/DQ model: one decision, shared by the window
// (table, graph outlines, status bar), the export summary, lint, `compare`, `run --simulate` and the reading of a
// written model, so none of them can say INT8 where the file says float.
//
// A node runs INT8 when the export writes Q/DQ for it (weighted layers, residual Adds, Concats and pools, as
// placeQdq places them), or when TensorRT fuses it with such nodes without Q/DQ of its own (closeInt8: epilogues into
// their layer, data movement between INT8 layers). So:
//   - a node planned INT8 that gets no Q/DQ and fuses with nothing (a Softmax, an Add with no INT8 layer to fuse
//     into, a Concat whose output nobody reads through Q/DQ, a Relu after an FP16 conv) runs the fallback precision,
//     with the reason;
//   - a node planned FP32 (or FP16 under weak typing) that TensorRT fuses into an INT8 layer (a Relu after an INT8
//     conv) runs INT8, with the reason; under strong typing a planned FP16 node is a float16 island, which no
//     fusion crosses, so it stays FP16;
//   - a node computed from constants alone is folded by the export into a float32 initializer: FP32.
// Applied as the last TensorRT policy before the FP16 guard (lint_policy.h: TrtPolicies). A model that carries Q/DQ
// nodes of its own is left alone: its Q/DQ decide (carried_model.h reads them).
#include "core/quant/calibration.h"
#include "core/quant/precision_plan.h"

namespace ql {

class RealizedPrecision final : public PrecisionPolicy {
public:
    // `fallback`: what a node planned INT8 that cannot run INT8 runs instead. `strongTyping`: the export writes FP16
    // nodes as float16 islands. `calibration` (may be null: every activation counts as calibrated): an INT8 layer
    // whose input it has no range for falls back. It must outlive apply().
    RealizedPrecision(Precision fallback, bool strongTyping, const CalibrationResult* calibration)
        : mFallback(fallback), mStrongTyping(strongTyping), mCalibration(calibration) {}
    void apply(const Graph& graph, PrecisionPlan& plan) const override;

private:
    Precision mFallback;
    bool mStrongTyping;
    const CalibrationResult* mCalibration;
};

// The precisions a written model says, on the float model it was made from (`graph`): INT8 for the nodes a
// DequantizeLinear fed (`quantized`, one flag per node) and for those TensorRT fuses with them (closeInt8), FP16 for
// the float16 nodes (`fp16`), and every other float node FP32 when `strongTyping` (its float32 is meant), FP16 when
// not (the builder's --fp16 decides). Requested and effective alike.
PrecisionPlan writtenPrecisions(const Graph& graph, const std::vector<bool>& quantized, const std::vector<bool>& fp16,
                                bool strongTyping);

// A node computed from constants alone: the export folds it (constant_folding.h). One flag per node.
std::vector<bool> constantComputed(const Graph& graph);

}  // namespace ql
