#pragma once
#include "core/exec/kernel.h"

namespace ql {

// OneHot: indices (any numeric type, negative counts from the back) become a new axis of size `depth`
// holding values[1] at the index and values[0] elsewhere.
class OneHotKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    int64_t mAxis = -1;
};

}  // namespace ql
