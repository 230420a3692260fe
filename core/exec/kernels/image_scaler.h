#pragma once
#include <vector>

#include "core/exec/kernel.h"

namespace ql {

// ImageScaler (experimental, before opset 10; TensorRT's parser still takes it): y = scale * x + bias[c] over an
// N x C x H x W input. Float, double, float16 and bfloat16 (computed in float).
class ImageScalerKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    float mScale = 1.0f;
    std::vector<float> mBias;
};

}  // namespace ql
