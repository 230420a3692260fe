#pragma once
#include "core/exec/kernel.h"

namespace ql {

// Range: start, start + delta, ... up to (excluding) limit, in the inputs' dtype.
class RangeKernel final : public Kernel {
public:
    Status compute(KernelContext& ctx) override;
};

}  // namespace ql
