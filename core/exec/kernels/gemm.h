#pragma once
// Gemm (opsets 1-17): Y = alpha * A' B' + beta * C with transA / transB and C broadcast to [M, N].
// Float (and float16 / bfloat16 through float) on oneDNN; double and integer types with a plain loop.
#include <map>

#include "core/exec/kernel.h"
#include "core/exec/kernels/onednn_layer.h"

namespace ql {

class GemmKernel final : public Kernel, public WeightCachingKernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    struct Dims {
        int64_t m = 0, n = 0, k = 0;
    };
    Status computeFloat(KernelContext& ctx, const Dims& d);

    float mAlpha = 1.0f, mBeta = 1.0f;
    bool mTransA = false, mTransB = false;
    const void* mConstantB = nullptr;    // see constantInputData()
    std::map<Shape, MatMulPlan> mPlans;  // by M, N, K, has C
};

}  // namespace ql
