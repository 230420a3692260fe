#pragma once
#include <vector>

#include "core/exec/kernel.h"

namespace ql {

// ReduceSum, ReduceMean, ReduceMax, ReduceMin, ReduceProd, ReduceL1, ReduceL2, ReduceLogSum,
// ReduceLogSumExp, ReduceSumSquare. Axes come from the `axes` attribute, or from optional input 1 for
// ReduceSum from opset 13 and for all of them from opset 18; keepdims; noop_with_empty_axes (empty axes
// then mean identity instead of "reduce everything"). Reducing an empty set gives the identity of the fold
// (0 for sums, 1 for products, -inf/+inf or the integer limits for max/min).
class ReduceKernel final : public Kernel {
public:
    enum class Op { Sum, Mean, Max, Min, Prod, L1, L2, LogSum, LogSumExp, SumSquare };
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    Op mOp = Op::Sum;
    bool mAxesFromInput = false;
    bool mKeepDims = true;
    bool mNoopWithEmptyAxes = false;
    std::vector<int64_t> mAxes;
};

}  // namespace ql
