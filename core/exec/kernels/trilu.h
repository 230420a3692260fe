#pragma once
#include "core/exec/kernel.h"

namespace ql {

// Trilu: keeps the upper (default) or lower triangle of the last two axes, shifted by the optional k input,
// and zeroes the rest.
class TriluKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    bool mUpper = true;
};

}  // namespace ql
