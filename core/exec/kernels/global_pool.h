#pragma once
#include "core/exec/kernel.h"
#include "core/exec/layout_ops.h"

namespace ql {

// GlobalAveragePool and GlobalMaxPool: one value per (batch, channel) over all spatial axes.
// Reads float N x C x H x W input in oneDNN layouts (oneDNN pooling over the whole plane).
class GlobalPoolKernel final : public Kernel, public LayoutAwareKernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;
    uint32_t layoutInputs() const override { return 1u; }

private:
    Status computePlain(KernelContext& ctx) const;

    PoolCache mPoolCache;

    bool mMax = false;
};

}  // namespace ql
