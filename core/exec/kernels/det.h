#pragma once
#include "core/exec/kernel.h"

namespace ql {

// Det (opsets 11, 22): the determinant of each square matrix in X [..., M, M] (LU with partial pivoting, in
// double). Float, double, float16 and bfloat16.
class DetKernel final : public Kernel {
public:
    Status compute(KernelContext& ctx) override;
};

}  // namespace ql
