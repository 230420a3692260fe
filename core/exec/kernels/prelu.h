#pragma once
#include "core/exec/kernel.h"

namespace ql {

// PRelu: y = x < 0 ? slope * x : x, the slope broadcast to x (per channel, per element or scalar).
class PReluKernel final : public Kernel {
public:
    Status compute(KernelContext& ctx) override;
};

}  // namespace ql
