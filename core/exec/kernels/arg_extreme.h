#pragma once
#include "core/exec/kernel.h"

namespace ql {

// ArgMax / ArgMin along `axis` (int64 indices): keepdims, and select_last_index (opset 12+) to report the
// last occurrence of the extreme instead of the first.
class ArgExtremeKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    bool mMax = true;
    int64_t mAxis = 0;
    bool mKeepDims = true;
    bool mSelectLast = false;
};

}  // namespace ql
