#pragma once
#include "core/exec/kernel.h"

namespace ql {

// BatchNormalization over [N, C, ...]: y = scale * (x - mean) / sqrt(var + epsilon) + B per channel.
// Inference uses the given mean/var; training_mode=1 (opset 14+) normalizes with the batch statistics and
// also outputs running_mean/running_var updated with `momentum`.
class BatchNormalizationKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    float mEpsilon = 1e-5f;
    float mMomentum = 0.9f;
    bool mTraining = false;
};

}  // namespace ql
