#pragma once
#include "core/exec/kernel.h"

namespace ql {

// ReverseSequence (opset 10): for each batch entry b (along batch_axis), the first sequence_lens[b] slices along
// time_axis in reverse order, the rest as they are. time_axis and batch_axis are 0 and 1 in either order. Any
// element type.
class ReverseSequenceKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    int64_t mTimeAxis = 0, mBatchAxis = 1;
};

}  // namespace ql
