#pragma once
#include "core/exec/kernel.h"

namespace ql {

// Clip: bounds from the min/max attributes (opset 6-10) or from the optional scalar inputs 1 and 2
// (opset 11+, any numeric dtype from 12). When min > max every value becomes max, as numpy.clip does.
class ClipKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    bool mBoundsAreInputs = true;
    float mMin = 0, mMax = 0;
};

}  // namespace ql
