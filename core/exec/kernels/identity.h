#pragma once
#include "core/exec/kernel.h"

namespace ql {

// Identity (and the pass-through used for Dropout in inference): the output shares the input's storage.
class IdentityKernel final : public Kernel {
public:
    Status compute(KernelContext& ctx) override;
};

}  // namespace ql
