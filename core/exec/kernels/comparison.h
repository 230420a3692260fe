#pragma once
#include "core/exec/kernel.h"

namespace ql {

// Equal, Greater, Less, GreaterOrEqual, LessOrEqual: bool output with numpy broadcasting, any numeric dtype.
class ComparisonKernel final : public Kernel {
public:
    enum class Op { Equal, Greater, Less, GreaterOrEqual, LessOrEqual };
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    Op mOp = Op::Equal;
};

}  // namespace ql
