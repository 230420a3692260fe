#pragma once
#include "core/exec/kernel.h"

namespace ql {

// EyeLike: a 2-D tensor shaped like the input with ones on diagonal k, in `dtype` (default: the input's).
class EyeLikeKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    DataType mDtype = DataType::Undefined;
    int64_t mK = 0;
};

}  // namespace ql
