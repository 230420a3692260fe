#pragma once
#include <dnnl.hpp>

#include "core/exec/kernel.h"
#include "core/exec/onednn_util.h"

namespace ql {

// Softmax, LogSoftmax and Hardmax. Before opset 13 the input is seen as 2-D [prod(dims[:axis]),
// prod(dims[axis:])] (default axis 1); from opset 13 the op runs along the single axis (default -1).
// Float Softmax / LogSoftmax run on oneDNN (JIT-compiled for the host's vector width, e.g. AVX-512 exp).
class SoftmaxKernel final : public Kernel {
public:
    enum class Op { Softmax, LogSoftmax, Hardmax };
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    void computeOneDnn(const Tensor& x, Tensor& y, int64_t outer, int64_t axis, int64_t inner);

    onednn::LastPrimitive<dnnl::softmax_v2_forward> mPrimitive;
    Op mOp = Op::Softmax;
    bool mFlatten = false;
    int64_t mAxis = -1;
};

}  // namespace ql
