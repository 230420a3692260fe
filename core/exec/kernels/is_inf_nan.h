#pragma once
#include "core/exec/kernel.h"

namespace ql {

// IsNaN, and IsInf with detect_negative / detect_positive: bool outputs, float/double/float16/bfloat16.
class IsInfNanKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    bool mNan = false;
    bool mNegative = true, mPositive = true;
};

}  // namespace ql
