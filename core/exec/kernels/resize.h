#pragma once
#include <string>
#include <vector>

#include "core/exec/kernel.h"
#include "core/exec/kernels/resize_taps.h"

namespace ql {

// Resize (opsets 10+: nearest / linear / cubic, every coordinate_transformation_mode (half_pixel_symmetric from 19)
// and nearest_mode, cubic_coeff_a, exclude_outside, extrapolation_value; scales or sizes, from opset 18 for the
// `axes` listed only and with keep_aspect_ratio_policy stretch / not_larger / not_smaller; not antialias) and the
// deprecated Upsample
// (opsets 7-9), which is Resize with asymmetric coordinates. Float bilinear resizing of the last two axes follows
// ONNX Runtime's arithmetic exactly (resize_bilinear.h).
class ResizeKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    // The output shape and, per axis, the input taps of every output coordinate.
    struct Plan {
        Shape shape;
        std::vector<AxisTaps> taps;
        std::vector<float> scales;  // per axis, output / input
        bool crops = false;         // tf_crop_and_resize puts some outputs outside the input
    };
    Result<Plan> plan(const KernelContext& ctx) const;
    // Scales (and the output shape) for every axis from the scales or sizes input, which opset 18 may give for `axes`
    // only; keep_aspect_ratio_policy turns sizes into one scale.
    Status fullScales(const KernelContext& ctx, std::vector<float>& scales, Shape& shape) const;

    ResizeOptions mOptions;
    float mExtrapolation = 0.0f;
    std::vector<float> mScales;  // Upsample-7: the scales attribute
    int mScalesInput = 2;        // -1: attribute; 1: Upsample-9 and Resize-10
    bool mHasRoiAndSizes = true;
    std::vector<int64_t> mAxes;             // opset 18: the axes scales, sizes and roi are given for (empty: all)
    std::string mAspectPolicy = "stretch";  // opset 18: keep_aspect_ratio_policy
};

}  // namespace ql
