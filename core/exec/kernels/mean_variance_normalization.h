#pragma once
#include <vector>

#include "core/exec/kernel.h"

namespace ql {

// MeanVarianceNormalization (opsets 9, 13): (x - mean) / (sqrt(E[x^2] - mean^2) + 1e-9) over `axes` (default
// 0, 2, 3), as ONNX's function body computes it. Float, double, float16 and bfloat16 (computed in float).
class MeanVarianceNormalizationKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    std::vector<int64_t> mAxes;
};

}  // namespace ql
