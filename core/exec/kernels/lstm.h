#pragma once
#include "core/exec/kernel.h"
#include "core/exec/kernels/recurrent_util.h"

namespace ql {

// LSTM (opsets 7-22; layout from 14): forward, reverse and bidirectional; gates i, o, f, c; optional B,
// sequence_lens, initial_h, initial_c and peepholes P; input_forget; clip; any of ONNX's activations for f, g, h
// with activation_alpha/beta. Outputs Y, Y_h, Y_c. Float, float16 and bfloat16 (computed in float).
// The input projection runs for all time steps in one GEMM; each step adds H·Rᵀ and the cell arithmetic.
class LstmKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    void runDirection(const RecurrentInputs& in, const Tensor& peepholes, int64_t d, RecurrentOutputs& out) const;

    RecurrentAttributes mAttrs;
    bool mInputForget = false;
};

}  // namespace ql
