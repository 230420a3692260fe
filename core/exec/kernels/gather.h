#pragma once
#include "core/exec/kernel.h"

namespace ql {

// Gather: picks slices of `data` along `axis` by (possibly negative) indices.
class GatherKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    int64_t mAxis = 0;
};

}  // namespace ql
