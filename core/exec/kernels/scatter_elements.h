#pragma once
#include "core/exec/kernel.h"
#include "core/exec/kernels/scatter_reduction.h"

namespace ql {

// ScatterElements (and the deprecated Scatter of opsets 9-10): a copy of data with updates written at
// the positions GatherElements would read, combined by `reduction`.
class ScatterElementsKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    int64_t mAxis = 0;
    ScatterReduction mReduction = ScatterReduction::None;
};

}  // namespace ql
