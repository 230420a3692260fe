#pragma once
#include "core/exec/kernel.h"

namespace ql {

// Mod with numpy broadcasting. fmod=0: the result has the sign of the divisor (Python / numpy.mod);
// fmod=1: the sign of the dividend (C fmod). A zero integer divisor gives 0 instead of trapping.
class ModKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    bool mFmod = false;
};

}  // namespace ql
