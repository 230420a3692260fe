#pragma once
// MatMul (opsets 1-17): numpy matmul semantics, with broadcasting of batch dimensions and 1-D operands.
// Float (and float16 / bfloat16 through float) on oneDNN; double and integer types with a plain loop.
#include <map>

#include "core/exec/kernel.h"
#include "core/exec/kernels/onednn_layer.h"

namespace ql {

// The shapes of a numpy matmul: operands as [batch..., M, K] x [batch..., K, N] of equal rank (leading 1s
// added; 1-D operands promoted), and the output shape with the promoted axes removed again.
struct MatMulShapes {
    Shape a, b, dst;  // equal rank >= 2; dst is [batch..., M, N]
    Shape output;     // what the node produces
};
Result<MatMulShapes> matMulShapes(const KernelContext& ctx, const Shape& a, const Shape& b);

class MatMulKernel final : public Kernel, public WeightCachingKernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    Status computeFloat(KernelContext& ctx, const MatMulShapes& s);

    const void* mConstantB = nullptr;    // see constantInputData()
    std::map<Shape, MatMulPlan> mPlans;  // by A shape followed by B shape
};

}  // namespace ql
