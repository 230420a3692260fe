#pragma once
#include "core/exec/kernel.h"
#include "core/exec/kernels/pool_geometry.h"

namespace ql {

// LpPool (opsets 1-22: kernel_shape, strides, pads / auto_pad; dilations and ceil_mode from opset 18) and
// GlobalLpPool (opset 1+): (sum of |x|^p over the window)^(1/p), p an integer attribute (default 2; a float
// before opset 2). Padding adds nothing to a window. 1-D to 3-D windows (GlobalLpPool: any rank), float, double,
// float16 and bfloat16 (computed in float).
class LpPoolKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    bool mGlobal = false;
    float mP = 2.0f;
    PoolAttributes mAttrs;
};

}  // namespace ql
