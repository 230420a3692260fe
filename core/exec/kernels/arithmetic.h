#pragma once
#include "core/exec/kernel.h"
#include "core/exec/layout_ops.h"

namespace ql {

// Add, Sub, Mul, Div with numpy broadcasting, over every numeric dtype (float16/bfloat16 computed in float).
// Integer results wrap around; integer division truncates toward zero and gives 0 for a zero divisor.
// Float operands in oneDNN layouts (the squeeze-excite Mul after a convolution), and large plain float
// operands, run on oneDNN binary.
class ArithmeticKernel final : public Kernel, public LayoutAwareKernel {
public:
    enum class Op { Add, Sub, Mul, Div };
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;
    uint32_t layoutInputs() const override { return 3u; }

private:
    Status computePlain(KernelContext& ctx) const;
    std::optional<Tensor> computeInLayout(const KernelContext& ctx) const;
    static bool worthOneDnn(const KernelContext& ctx);

    Op mOp = Op::Add;
    mutable onednn::BinaryCache mBinary;
};

}  // namespace ql
