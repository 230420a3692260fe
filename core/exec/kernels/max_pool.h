#pragma once
#include "core/exec/kernel.h"
#include "core/exec/kernels/pool_geometry.h"

namespace ql {

// MaxPool 1-D/2-D/3-D (NCHW) with dilations and the optional Indices output: flat indices into the input,
// spatial axes in row-major order (storage_order 0) or column-major (1).
class MaxPoolKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    PoolAttributes mAttrs;
    bool mColumnMajor = false;
};

}  // namespace ql
