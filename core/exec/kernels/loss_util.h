#pragma once
// The negative log-likelihood that NegativeLogLikelihoodLoss computes and SoftmaxCrossEntropyLoss computes after
// its log-softmax, as ONNX's reference does: per element -input[n, target, d] * weight[target] (0 where the target
// is ignore_index), then none / sum / mean, the mean divided by the weights taken (or by the elements counted,
// without weights or ignore_index).
#include <optional>
#include <string>
#include <vector>

#include "core/exec/kernel.h"

namespace ql {

struct LossAttributes {
    enum class Reduction { None, Sum, Mean };
    Reduction reduction = Reduction::Mean;
    std::optional<int64_t> ignoreIndex;
};
Result<LossAttributes> readLossAttributes(const KernelInit& info);

// `logProb` [N, C, d...] as doubles, the target (input 1) and optional weight (input 2) of `ctx`; the loss in
// `dtype`: [N, d...] for reduction none, a scalar otherwise.
Result<Tensor> negativeLogLikelihood(const KernelContext& ctx, const LossAttributes& attrs,
                                     const std::vector<double>& logProb, const Shape& shape, DataType dtype);

// A tensor of `dtype` (float, double, float16, bfloat16) holding `values`.
Tensor floatingTensor(DataType dtype, Shape shape, const std::vector<double>& values);

}  // namespace ql
