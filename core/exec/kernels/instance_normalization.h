#pragma once
#include "core/exec/kernel.h"

namespace ql {

// InstanceNormalization over [N, C, ...]: each (n, c) plane is normalized over its spatial values, then
// scaled and shifted by scale[c] and B[c].
class InstanceNormalizationKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    float mEpsilon = 1e-5f;
};

}  // namespace ql
