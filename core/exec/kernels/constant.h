#pragma once
// Constant (every value / value_* attribute form) and ConstantOfShape.
#include "core/exec/kernel.h"

namespace ql {

// The tensor is decoded once at init; every run shares it.
class ConstantKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    Tensor mValue;
};

class ConstantOfShapeKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    Tensor mValue;  // one element; float 0 when the attribute is absent
};

}  // namespace ql
