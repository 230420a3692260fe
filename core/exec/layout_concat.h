#pragma once
// Concat of 4-D float tensors along channels when some input is in a oneDNN layout (our own copy for
// channels-last inputs, oneDNN concat for the others), so the outputs of parallel convolutions (SqueezeNet's
// fire modules, DenseNet's dense blocks) need not be reordered to NCHW to be joined. The executor puts it in
// front of the registry's Concat kernel in its fused plan; any other case goes to that kernel with plain inputs.
#include "core/exec/kernel.h"
#include "core/exec/layout_ops.h"

namespace ql {

class LayoutConcatKernel final : public Kernel, public LayoutAwareKernel {
public:
    explicit LayoutConcatKernel(Kernel& plain) : mPlain(plain) {}
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;
    uint32_t layoutInputs() const override { return ~0u; }

private:
    bool fits(const KernelContext& ctx) const;

    Kernel& mPlain;
    int64_t mAxis = 0;
};

}  // namespace ql
