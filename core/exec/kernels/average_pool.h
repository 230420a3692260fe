#pragma once
#include "core/exec/kernel.h"
#include "core/exec/kernels/pool_geometry.h"

namespace ql {

// AveragePool 1-D/2-D/3-D (NCHW). With count_include_pad the divisor counts padded positions inside the
// padded input; otherwise only real elements.
class AveragePoolKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    PoolAttributes mAttrs;
    bool mCountIncludePad = false;
};

}  // namespace ql
