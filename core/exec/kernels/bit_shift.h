#pragma once
#include "core/exec/kernel.h"

namespace ql {

// BitShift of unsigned integers, `direction` LEFT or RIGHT, with numpy broadcasting. Shifting by the bit
// width or more gives 0 (C++ leaves it undefined).
class BitShiftKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    bool mLeft = true;
};

}  // namespace ql
