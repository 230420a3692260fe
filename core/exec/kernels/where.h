#pragma once
#include "core/exec/kernel.h"

namespace ql {

// Where: y = condition ? x : y, the three inputs broadcast together (numpy rules), any element type.
class WhereKernel final : public Kernel {
public:
    Status compute(KernelContext& ctx) override;
};

}  // namespace ql
