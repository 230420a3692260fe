#pragma once
#include "core/exec/kernel.h"

namespace ql {

// Expand: broadcasts the input to the numpy broadcast of its shape and the given shape.
class ExpandKernel final : public Kernel {
public:
    Status compute(KernelContext& ctx) override;
};

}  // namespace ql
