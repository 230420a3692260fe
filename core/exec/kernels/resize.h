#pragma once
#include <vector>

#include "core/exec/kernel.h"
#include "core/exec/kernels/resize_taps.h"

namespace ql {

// Resize (opsets 10-17: nearest / linear / cubic, every coordinate_transformation_mode and nearest_mode,
// cubic_coeff_a, exclude_outside, extrapolation_value; scales or sizes) and the deprecated Upsample
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

    ResizeOptions mOptions;
    float mExtrapolation = 0.0f;
    std::vector<float> mScales;  // Upsample-7: the scales attribute
    int mScalesInput = 2;        // -1: attribute; 1: Upsample-9 and Resize-10
    bool mHasRoiAndSizes = true;
};

}  // namespace ql
