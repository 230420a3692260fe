#pragma once
#include "core/exec/kernel.h"

namespace ql {

// NonZero: the coordinates of the non-zero elements, as int64 [rank, count] in row-major order.
class NonZeroKernel final : public Kernel {
public:
    Status compute(KernelContext& ctx) override;
};

}  // namespace ql
