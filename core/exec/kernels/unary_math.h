#pragma once
#include "core/exec/kernel.h"

namespace ql {

// y = erf(x) for float arrays, as the Erf kernel computes it (an elementwise fusion reuses it to stay bit-exact).
void erfFloat(const float* x, float* y, int64_t n);

// Attribute-free elementwise math: Abs, Neg, Sign, Relu (also on integers), and on float/double/float16/
// bfloat16 Ceil, Floor, Round (half to even), Sqrt, Reciprocal, Exp, Log, Sin, Cos, Tan, Asin, Acos, Atan,
// Sinh, Cosh, Asinh, Acosh, Atanh, Tanh, Sigmoid, Erf, Softplus, Softsign. Float paths are Eigen array
// expressions (vectorized exp/log/tanh/logistic/erf).
class UnaryMathKernel final : public Kernel {
public:
    enum class Op {
        Abs,
        Neg,
        Sign,
        Relu,
        Ceil,
        Floor,
        Round,
        Sqrt,
        Reciprocal,
        Exp,
        Log,
        Sin,
        Cos,
        Tan,
        Asin,
        Acos,
        Atan,
        Sinh,
        Cosh,
        Asinh,
        Acosh,
        Atanh,
        Tanh,
        Sigmoid,
        Erf,
        Softplus,
        Softsign
    };
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    Op mOp = Op::Abs;
};

}  // namespace ql
