#pragma once
#include <vector>

#include "core/exec/kernel.h"

namespace ql {

// MaxUnpool (opsets 9, 11, 22): scatters X [N, C, spatial...] to the flat positions I (MaxPool's Indices output,
// INT64) of a zero tensor of (in - 1) * stride - pad_begin - pad_end + kernel per spatial axis; a larger output_shape
// (optional input 2) pads that result at the end, as ONNX Runtime does (the indices keep addressing the unpadded
// shape). Any element type.
class MaxUnpoolKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    std::vector<int64_t> mKernel, mStrides, mPads;
};

}  // namespace ql
