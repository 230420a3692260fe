#pragma once
#include <vector>

#include "core/exec/kernel.h"

namespace ql {

// Split along `axis` by sizes from the `split` attribute (opset < 13) or input (13+), else into equal parts
// (the last part smaller when the axis does not divide evenly, as opset 18's num_outputs allows).
class SplitKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    int64_t mAxis = 0;
    bool mSplitFromInput = false;
    std::vector<int64_t> mSplit;
};

}  // namespace ql
