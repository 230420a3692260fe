#pragma once
#include "core/exec/kernel.h"
#include "core/exec/kernels/pool_geometry.h"
#include "core/exec/layout_ops.h"

namespace ql {

// MaxPool 1-D/2-D/3-D (NCHW) with dilations and the optional Indices output: flat indices into the input,
// spatial axes in row-major order (storage_order 0) or column-major (1).
// Without the Indices output, reads float input in oneDNN layouts (oneDNN pooling).
class MaxPoolKernel final : public Kernel, public LayoutAwareKernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;
    uint32_t layoutInputs() const override { return mWantIndices ? 0u : 1u; }

private:
    Status computePlain(KernelContext& ctx) const;

    PoolCache mPoolCache;

    bool mWantIndices = false;
    PoolAttributes mAttrs;
    bool mColumnMajor = false;
};

}  // namespace ql
