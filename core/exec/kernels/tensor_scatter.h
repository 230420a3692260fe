#pragma once
#include <string>

#include "core/exec/kernel.h"

namespace ql {

// TensorScatter (opset 24): a KV-cache update. present = past_cache with `update` written along `axis` (default -2)
// from write_indices[b] (optional, 0) for each batch entry b; mode linear (must fit) or circular (wraps around the
// axis). Any element type.
class TensorScatterKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    int64_t mAxis = -2;
    bool mCircular = false;
};

}  // namespace ql
