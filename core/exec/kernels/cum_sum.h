#pragma once
#include "core/exec/kernel.h"

namespace ql {

// CumSum along the axis given by input 1 (a scalar int32/int64): `exclusive` leaves out the current element,
// `reverse` sums from the end.
class CumSumKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    bool mExclusive = false, mReverse = false;
};

}  // namespace ql
