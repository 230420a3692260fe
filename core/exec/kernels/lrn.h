#pragma once
#include "core/exec/kernel.h"

namespace ql {

// LRN across channels of [N, C, ...]: y = x / (bias + alpha / size * sum of x^2 over the `size` channels
// around c)^beta, the window spanning floor((size-1)/2) channels before c and ceil((size-1)/2) after.
class LrnKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    int64_t mSize = 1;
    float mAlpha = 1e-4f, mBeta = 0.75f, mBias = 1.0f;
};

}  // namespace ql
