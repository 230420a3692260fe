#pragma once
// Attributes and output geometry of Conv and ConvTranspose (opsets 11-17): auto_pad, dilations, group,
// kernel_shape, pads, strides, and for ConvTranspose output_padding and output_shape.
#include <string>

#include "core/exec/kernel.h"

namespace ql {

struct ConvAttributes {
    std::string autoPad = "NOTSET";
    int64_t group = 1;
    Shape dilations, kernelShape, pads, strides, outputPadding, outputShape;  // empty when not given
};

Result<ConvAttributes> parseConvAttributes(const KernelInit& info, bool transposed);

// Per spatial axis, and the full output shape [N, M, spatial...]. Pads may be negative for ConvTranspose
// when output_shape asks for more than the natural size (the extra cells then only receive the bias).
struct ConvGeometry {
    Shape stride, dilation, padBegin, padEnd;
    Shape outputShape;
};

// X [N, C, spatial...], W [M, C/group, k...].
// X, W and the optional bias B (input 2) must share one floating-point type.
Status checkConvInputTypes(const KernelContext& ctx);

Result<ConvGeometry> convGeometry(const KernelContext& ctx, const ConvAttributes& attrs, const Shape& x,
                                  const Shape& w);
// X [N, C, spatial...], W [C, M/group, k...].
Result<ConvGeometry> convTransposeGeometry(const KernelContext& ctx, const ConvAttributes& attrs, const Shape& x,
                                           const Shape& w);

}  // namespace ql
