#pragma once
// Shape and Size: metadata of the input as int64 tensors.
#include <optional>

#include "core/exec/kernel.h"

namespace ql {

class ShapeKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    int64_t mStart = 0;
    std::optional<int64_t> mEnd;  // opset 15: the slice of dimensions to return
};

class SizeKernel final : public Kernel {
public:
    Status compute(KernelContext& ctx) override;
};

}  // namespace ql
