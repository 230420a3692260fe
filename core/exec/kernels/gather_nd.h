#pragma once
#include "core/exec/kernel.h"

namespace ql {

// GatherND with batch_dims: each innermost index tuple of `indices` picks a slice of `data`.
class GatherNDKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    int64_t mBatchDims = 0;
};

}  // namespace ql
