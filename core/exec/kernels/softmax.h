#pragma once
#include "core/exec/kernel.h"

namespace ql {

// Softmax, LogSoftmax and Hardmax. Before opset 13 the input is seen as 2-D [prod(dims[:axis]),
// prod(dims[axis:])] (default axis 1); from opset 13 the op runs along the single axis (default -1).
class SoftmaxKernel final : public Kernel {
public:
    enum class Op { Softmax, LogSoftmax, Hardmax };
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    Op mOp = Op::Softmax;
    bool mFlatten = false;
    int64_t mAxis = -1;
};

}  // namespace ql
