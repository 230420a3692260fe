#pragma once
#include "core/exec/kernel.h"

namespace ql {

// Shrink: y = x - bias if x > lambd, x + bias if x < -lambd, else 0; any numeric dtype.
class ShrinkKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    float mLambd = 0.5f, mBias = 0.0f;
};

}  // namespace ql
