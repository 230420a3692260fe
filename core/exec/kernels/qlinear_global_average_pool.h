#pragma once
#include "core/exec/kernel.h"

namespace ql {

// com.microsoft QLinearGlobalAveragePool: the mean over the spatial axes of an int8 / uint8 X (NCHW, or channels_last
// NHWC) requantized as ONNX Runtime does: (sum - x_zero * count) * (x_scale / (y_scale * count)), rounded half to even,
// + y_zero, saturated. The output keeps X's rank with spatial sizes 1.
class QLinearGlobalAveragePoolKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    bool mChannelsLast = false;
};

}  // namespace ql
