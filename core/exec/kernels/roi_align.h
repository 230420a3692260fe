#pragma once
#include "core/exec/kernel.h"

namespace ql {

// RoiAlign (opsets 10, 16, 22): X [N, C, H, W] pooled over each region of rois [R, 4] (x1, y1, x2, y2) of image
// batch_indices[r] into [R, C, output_height, output_width], sampling_ratio bilinear samples per bin (0: adaptive),
// spatial_scale, mode avg or max, coordinate_transformation_mode half_pixel (opset 16's default) or
// output_half_pixel (opset 10's behaviour). ONNX Runtime's arithmetic, including its max mode (the largest weighted
// corner of any sample). Float, double, float16 and bfloat16 (computed in float).
class RoiAlignKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    bool mMax = false, mHalfPixel = true;
    int64_t mHeight = 1, mWidth = 1, mSamplingRatio = 0;
    float mSpatialScale = 1.0f;
};

}  // namespace ql
