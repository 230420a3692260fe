#pragma once
#include "core/exec/kernel.h"

namespace ql {

// Concat along `axis` (negative allowed); zero-size inputs contribute nothing.
class ConcatKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    int64_t mAxis = 0;
};

}  // namespace ql
