#pragma once
#include "core/exec/kernel.h"

namespace ql {

// LpNormalization (opsets 1, 22): x / ||x||_p along `axis` (default -1), p 1 or 2 (default 2); an all-zero line
// stays zero. Float, double, float16 and bfloat16 (computed in float).
class LpNormalizationKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    int64_t mAxis = -1, mP = 2;
};

}  // namespace ql
