#pragma once
#include <dnnl.hpp>
#include <optional>

#include "core/exec/kernel.h"
#include "core/exec/layout_ops.h"

namespace ql {

// BatchNormalization over [N, C, ...]: y = scale * (x - mean) / sqrt(var + epsilon) + B per channel.
// Inference uses the given mean/var; training_mode=1 (opset 14+) normalizes with the batch statistics and
// also outputs running_mean/running_var updated with `momentum`. In inference, float X in a oneDNN layout
// (DenseNet's BatchNormalization after a Concat of convolutions) runs as oneDNN batch normalization in that
// layout, so the tensor need not be reordered to NCHW and back around it.
class BatchNormalizationKernel final : public Kernel, public LayoutAwareKernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;
    uint32_t layoutInputs() const override { return mTraining ? 0u : 1u; }
    // Applies a Relu to the output (the executor's BN+Relu fusion, fusion.h). Before the first run only.
    void setFusedRelu(bool relu) { mFusedRelu = relu; }

private:
    Status computePlain(KernelContext& ctx) const;
    // False when the inputs are not float with one value per channel (the caller computes on plain copies).
    Result<bool> computeInLayout(KernelContext& ctx);

    // The primitive for the last input layout seen (a node sees one layout in practice).
    std::optional<std::pair<dnnl::memory::desc, dnnl::batch_normalization_forward>> mPrimitive;
    float mEpsilon = 1e-5f;
    float mMomentum = 0.9f;
    bool mTraining = false;
    bool mFusedRelu = false;
};

}  // namespace ql
