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

// The fused group's extra inputs: the Add's operand for a sum post-op (same shape as the output), and the
// per-channel gate X is multiplied by first (a [1 or N, C, 1, 1] squeeze-excite gate).
inline constexpr size_t kConvSumInput = 3, kConvGateInput = 4;

// Set by the executor's fusion pass.
struct ConvFusion {
    std::vector<PostOp> postOps;
    bool gatedInput = false;  // X is to be multiplied by input kConvGateInput
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
    // X * gate, in X's layout.
    Result<Tensor> gated(const KernelContext& ctx, const Tensor& x, const Tensor& gate);

    ConvAttributes mAttrs;
    ConvFusion mFusion;
    // A fused Sigmoid or Swish at the end, applied after the primitive by fast_swish.h instead of as oneDNN's
    // post-op: faster, and rounded as the Sigmoid (and Mul) kernels round.
    dnnl::algorithm mActivationAfter = dnnl::algorithm::undef;
    const void* mConstantWeights = nullptr;     // see constantInputData()
    std::map<Shape, WeightedPrimitive> mPlans;  // by X shape, W shape, bias and weightsKept
    onednn::BinaryCache mGateCache;             // X * gate, where it is not folded into the weights
};

}  // namespace ql
