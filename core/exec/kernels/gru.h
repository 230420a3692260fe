#pragma once
#include "core/exec/kernel.h"
#include "core/exec/kernels/recurrent_util.h"

namespace ql {

// GRU (opsets 7-22; layout from 14): forward, reverse and bidirectional; gates z, r, h; linear_before_reset;
// optional B, sequence_lens and initial_h; clip; any of ONNX's activations for f and g with activation_alpha/beta.
// Outputs Y and Y_h. Float, float16 and bfloat16 (computed in float).
class GruKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    void runDirection(const RecurrentInputs& in, int64_t d, RecurrentOutputs& out) const;

    RecurrentAttributes mAttrs;
    bool mLinearBeforeReset = false;
};

}  // namespace ql
