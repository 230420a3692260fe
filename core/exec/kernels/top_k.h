#pragma once
#include "core/exec/kernel.h"

namespace ql {

// TopK: the k largest (or smallest) values along `axis` and their int64 indices. Equal values keep
// ascending index order (as ONNX Runtime); with sorted = 0 the k results come in index order.
class TopKKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    int64_t mAxis = -1;
    bool mLargest = true;
    bool mSorted = true;
    bool mKFromInput = true;
    int64_t mK = 0;  // opset < 10
};

}  // namespace ql
