#pragma once
// ConvTranspose (opsets 1-17) on oneDNN deconvolution: 1-D/2-D/3-D, groups, dilations, strides, pads /
// auto_pad, output_padding and output_shape. Output cells beyond what the kernel reaches get the bias.
#include <map>

#include "core/exec/kernel.h"
#include "core/exec/kernels/conv_geometry.h"
#include "core/exec/kernels/onednn_layer.h"

namespace ql {

class ConvTransposeKernel final : public Kernel, public WeightCachingKernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    struct Plan {
        WeightedPrimitive primitive;
        Shape outputShape;  // the node's output
        Shape offset;       // per spatial axis: output cell o reads primitive cell o + offset
    };
    Result<Plan*> plan(const KernelContext& ctx, const Shape& x, const Shape& w, bool hasBias);

    ConvAttributes mAttrs;
    const void* mConstantWeights = nullptr;  // see constantInputData()
    std::map<Shape, Plan> mPlans;            // by X shape followed by W shape
};

}  // namespace ql
