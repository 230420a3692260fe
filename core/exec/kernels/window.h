#pragma once
#include "core/exec/kernel.h"

namespace ql {

// HannWindow, HammingWindow and BlackmanWindow (opset 17): a window of `size` (int32 / int64 scalar input) values,
// periodic (default) or symmetric, in output_datatype (default FLOAT; any numeric type), computed in double as ONNX's
// reference does.
class WindowKernel final : public Kernel {
public:
    enum class Kind { Hann, Hamming, Blackman };
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    Kind mKind = Kind::Hann;
    bool mPeriodic = true;
    DataType mType = DataType::Float;
};

}  // namespace ql
