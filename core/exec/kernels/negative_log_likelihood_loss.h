#pragma once
#include "core/exec/kernel.h"
#include "core/exec/kernels/loss_util.h"

namespace ql {

// NegativeLogLikelihoodLoss (opsets 12, 13, 22): input [N, C, d...] of log-probabilities, target [N, d...] (int32 /
// int64), optional weight [C]; reduction none / sum / mean (default), ignore_index. Float, double, float16 and
// bfloat16 (computed in double).
class NegativeLogLikelihoodLossKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    LossAttributes mAttrs;
};

}  // namespace ql
