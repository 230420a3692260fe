#pragma once
#include "core/exec/kernel.h"

namespace ql {

// STFT (opset 17): frames of a real or complex signal [batch, length, 1 or 2], frame_step apart, each multiplied
// by the window (optional input 2) and transformed (dft.h) to [batch, frames, bins, 2]; frame_length from input 3
// or the window's length; onesided (default) keeps frame_length / 2 + 1 bins. Float, double, float16 and bfloat16
// (computed in double).
class StftKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    bool mOnesided = true;
};

}  // namespace ql
