#pragma once
#include "core/exec/kernel.h"

namespace ql {

// GroupNormalization over [N, C, ...]: the channels split into num_groups groups, each (n, group) normalized over
// its channels' values, y = (x - mean) / sqrt(var + epsilon), then scaled and shifted: per group (opset 18's
// [num_groups] scale and bias) or per channel (opset 21's [C]); told apart by their size. Float, double, float16 and
// bfloat16 (computed in float).
class GroupNormalizationKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    int64_t mGroups = 0;
    float mEpsilon = 1e-5f;
};

}  // namespace ql
