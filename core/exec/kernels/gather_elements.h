#pragma once
#include "core/exec/kernel.h"

namespace ql {

// GatherElements: out[i][j][k] = data[index][j][k] (axis 0), indices shaped like the output.
class GatherElementsKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    int64_t mAxis = 0;
};

}  // namespace ql
