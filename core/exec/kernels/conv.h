#pragma once
// Conv (opsets 1-17) on oneDNN: 1-D/2-D/3-D, groups (incl. depthwise), dilations, strides, pads / auto_pad.
// One primitive per input shape, weights reordered once when they are an initializer. The executor may fuse
// following activations / an Add into the primitive and let the output stay in oneDNN's layout (setFusion).
#include <map>

#include "core/exec/kernel.h"
#include "core/exec/kernels/conv_geometry.h"
#include "core/exec/kernels/onednn_layer.h"
#include "core/exec/layout_ops.h"

namespace ql {

// Set by the executor's fusion pass. A sum post-op adds the kernel's input 3 (same shape as the output).
struct ConvFusion {
    std::vector<PostOp> postOps;
};

// Reads X (and the fused Add's operand) in any oneDNN layout.
class ConvKernel final : public Kernel, public LayoutAwareKernel, public WeightCachingKernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;
    uint32_t layoutInputs() const override { return 1u | (1u << 3); }
    // Before the first run only (primitives are planned with it).
    void setFusion(ConvFusion fusion);

private:
    // `weightsKept`: the weights are constant and reordered once (cachable()), which Winograd needs to pay off.
    // `srcLayout`: X's channel-blocked layout, to be read as is (null for plain or channels-last X).
    Result<WeightedPrimitive*> plan(const KernelContext& ctx, const Shape& x, const Shape& w, bool hasBias,
                                    bool weightsKept, const dnnl::memory::desc* srcLayout);

    bool hasSum() const;
    void applyActivationAfter(Tensor& y) const;

    ConvAttributes mAttrs;
    ConvFusion mFusion;
    // A fused Sigmoid or Swish at the end, applied after the primitive by fast_swish.h instead of as oneDNN's
    // post-op: faster, and rounded as the Sigmoid (and Mul) kernels round.
    dnnl::algorithm mActivationAfter = dnnl::algorithm::undef;
    const void* mConstantWeights = nullptr;     // see constantInputData()
    std::map<Shape, WeightedPrimitive> mPlans;  // by X shape, W shape, bias and weightsKept
};

}  // namespace ql
