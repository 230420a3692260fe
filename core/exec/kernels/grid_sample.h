#pragma once
#include "core/exec/kernel.h"

namespace ql {

// GridSample over 4-D input (opset 16: modes bilinear / nearest / bicubic; opset 20+: the same as linear / nearest /
// cubic): X [N, C, H, W] sampled at grid [N, H_out, W_out, 2] (x, y normalized to [-1, 1]), padding_mode zeros /
// border / reflection, align_corners; PyTorch's grid_sample arithmetic, which ONNX's test data and ONNX Runtime
// follow. Float, double, float16 and bfloat16 (computed in float).
class GridSampleKernel final : public Kernel {
public:
    enum class Mode { Linear, Nearest, Cubic };
    enum class Padding { Zeros, Border, Reflection };
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    Mode mMode = Mode::Linear;
    Padding mPadding = Padding::Zeros;
    bool mAlignCorners = false;
};

}  // namespace ql
