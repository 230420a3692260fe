#pragma once
#include "core/exec/kernel.h"

namespace ql {

// GlobalAveragePool and GlobalMaxPool: one value per (batch, channel) over all spatial axes.
class GlobalPoolKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    bool mMax = false;
};

}  // namespace ql
