#pragma once
// Conv (opsets 1-17) on oneDNN: 1-D/2-D/3-D, groups (incl. depthwise), dilations, strides, pads / auto_pad.
// One primitive per input shape, weights reordered once when they are an initializer.
#include <map>

#include "core/exec/kernel.h"
#include "core/exec/kernels/conv_geometry.h"
#include "core/exec/kernels/onednn_layer.h"

namespace ql {

class ConvKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    Result<WeightedPrimitive*> plan(const KernelContext& ctx, const Shape& x, const Shape& w, bool hasBias);

    ConvAttributes mAttrs;
    const void* mConstantWeights = nullptr;     // see constantInputData()
    std::map<Shape, WeightedPrimitive> mPlans;  // by X shape followed by W shape
};

}  // namespace ql
