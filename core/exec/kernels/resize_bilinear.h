#pragma once
// Bilinear Resize of the last two axes of a float tensor computed exactly as ONNX Runtime's CPU kernel does
// (UpsampleBilinear: coordinates in float, clamped, the four weights as products of |distances|, summed in one
// order). A dynamically quantized model (ONNX Runtime's DynamicQuantizeLinear before each ConvInteger) turns a
// one-ulp difference into another uint8 level and lets it grow layer after layer, so matching its reference
// bit for bit here is what makes such models agree with it (ISNet: bench/isnet.mjs).
#include "core/exec/kernels/resize_taps.h"
#include "core/exec/tensor.h"

namespace ql {

// Whether resizeBilinear handles this case: float, rank 2 to 4, only the last two axes resized, and a coordinate
// mode other than tf_crop_and_resize and tf_half_pixel_for_nearest (which ONNX shifts even along unit-scale axes).
bool bilinearCase(const Tensor& in, const Shape& outShape, const ResizeOptions& options);

// out (already shaped) = in resized with `heightScale` / `widthScale` (output / input sizes as floats).
void resizeBilinear(const Tensor& in, Tensor& out, CoordinateMode coordinates, float heightScale, float widthScale);

}  // namespace ql
