#pragma once
#include <cstdint>

#include "core/exec/kernel.h"

namespace ql {

// Dropout. In inference (the default) the output shares the input and the optional mask is all true.
// With training_mode (input 2, opset 12+) each element is kept with probability 1 - ratio (input 1, or
// the attribute before opset 12) and scaled by 1 / (1 - ratio); `seed` makes the mask reproducible.
class DropoutKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    float mRatio = 0.5f;
    bool mRatioIsInput = true;
    uint64_t mSeed = 0;
    bool mHasSeed = false;
};

}  // namespace ql
