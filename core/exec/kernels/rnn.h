#pragma once
#include "core/exec/kernel.h"
#include "core/exec/kernels/recurrent_util.h"

namespace ql {

// RNN (opsets 7-22; layout from 14): H = f(x·Wᵀ + h·Rᵀ + Wb + Rb), forward, reverse and bidirectional; optional B,
// sequence_lens and initial_h; clip; any of ONNX's activations for f (default Tanh) with activation_alpha/beta.
// Outputs Y and Y_h. Float, float16 and bfloat16 (computed in float).
class RnnKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    RecurrentAttributes mAttrs;
};

}  // namespace ql
