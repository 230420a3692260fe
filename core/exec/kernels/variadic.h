#pragma once
#include "core/exec/kernel.h"

namespace ql {

// Max, Min, Sum, Mean over one or more inputs broadcast together (numpy rules). Max/Min propagate NaN.
class VariadicKernel final : public Kernel {
public:
    enum class Op { Max, Min, Sum, Mean };
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    Op mOp = Op::Sum;
};

}  // namespace ql
