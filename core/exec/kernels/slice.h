#pragma once
#include <vector>

#include "core/exec/kernel.h"

namespace ql {

// Slice: starts/ends/axes as attributes (opset < 10) or inputs with optional axes and steps (10+).
// Indices are clamped as numpy does, so INT64_MAX / INT64_MIN mean "to the end" in either direction.
class SliceKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    bool mFromInputs = true;
    std::vector<int64_t> mStarts, mEnds, mAxes;
};

}  // namespace ql
