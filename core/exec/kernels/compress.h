#pragma once
#include "core/exec/kernel.h"

namespace ql {

// Compress (opsets 9, 11): the slices of the input along `axis` (negative from opset 11) whose condition is true;
// without an axis, the flattened input's elements. A condition shorter than the axis keeps only its own slices.
// Any element type.
class CompressKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    bool mHasAxis = false;
    int64_t mAxis = 0;
};

}  // namespace ql
