#pragma once
#include "core/exec/kernel.h"
#include "core/exec/kernels/scatter_reduction.h"

namespace ql {

// ScatterND: a copy of data with update slices written at the index tuples, combined by `reduction`.
class ScatterNDKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    ScatterReduction mReduction = ScatterReduction::None;
};

}  // namespace ql
