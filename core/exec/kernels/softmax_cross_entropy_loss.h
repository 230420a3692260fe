#pragma once
#include "core/exec/kernel.h"
#include "core/exec/kernels/loss_util.h"

namespace ql {

// SoftmaxCrossEntropyLoss (opsets 12, 13): the negative log-likelihood of log_softmax(scores) over axis 1, scores
// [N, C, d...], labels [N, d...], optional weights [C]; reduction none / sum / mean (default), ignore_index; optional
// second output log_prob [N, C, d...]. Float, double, float16 and bfloat16 (computed in double).
class SoftmaxCrossEntropyLossKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    LossAttributes mAttrs;
};

}  // namespace ql
