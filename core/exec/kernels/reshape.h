#pragma once
// The view ops: Reshape, Flatten, Squeeze and Unsqueeze only change the shape, so their output shares
// the input's storage (Tensor::reshaped) and nothing is copied.
#include <vector>

#include "core/exec/kernel.h"

namespace ql {

class ReshapeKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    bool mAllowZero = false;
};

class FlattenKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    int64_t mAxis = 1;
};

// Squeeze and Unsqueeze: axes from the attribute (opset < 13) or the second input (13+).
class SqueezeKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    bool mAxesFromInput = false;
    std::vector<int64_t> mAxes;
};

class UnsqueezeKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    bool mAxesFromInput = false;
    std::vector<int64_t> mAxes;
};

}  // namespace ql
