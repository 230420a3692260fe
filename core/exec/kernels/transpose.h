#pragma once
#include <vector>

#include "core/exec/kernel.h"

namespace ql {

// Transpose: output axis i is input axis perm[i]; perm defaults to reversing the axes.
class TransposeKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    std::vector<int64_t> mPerm;
};

}  // namespace ql
