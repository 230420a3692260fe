#pragma once
#include "core/exec/kernel.h"

namespace ql {

// Unique (opset 11): the distinct elements (no axis) or distinct slices along `axis`, sorted ascending (sorted = 1,
// the default) or in order of first occurrence; outputs Y, indices (first occurrence of each), inverse_indices and
// counts (int64). Numeric element types (compared as their values; float16 / bfloat16 through float).
class UniqueKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    bool mSorted = true;
    bool mHasAxis = false;
    int64_t mAxis = 0;
};

}  // namespace ql
