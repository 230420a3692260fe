#pragma once
#include "core/exec/kernel.h"

namespace ql {

// RMSNormalization (opset 23): x / sqrt(mean(x^2) + epsilon) * scale over the dims from `axis` (default -1) on,
// scale broadcast to those dims. Computed in float (double for double inputs), whatever stash_type says.
class RmsNormalizationKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    int64_t mAxis = -1;
    float mEpsilon = 1e-5f;
};

}  // namespace ql
