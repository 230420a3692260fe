#pragma once
#include "core/exec/kernel.h"
#include "core/exec/kernels/pool_geometry.h"
#include "core/exec/layout_ops.h"

namespace ql {

// AveragePool 1-D/2-D/3-D (NCHW). With count_include_pad the divisor counts padded positions inside the
// padded input; otherwise only real elements.
// Without ceil_mode, reads float input in oneDNN layouts (oneDNN pooling).
class AveragePoolKernel final : public Kernel, public LayoutAwareKernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;
    uint32_t layoutInputs() const override { return mAttrs.ceilMode ? 0u : 1u; }

private:
    Status computePlain(KernelContext& ctx) const;

    PoolCache mPoolCache;

    PoolAttributes mAttrs;
    bool mCountIncludePad = false;
};

}  // namespace ql
