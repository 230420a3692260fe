#pragma once
#include "core/exec/kernel.h"

namespace ql {

// And, Or, Xor (bool, numpy broadcasting) and Not.
class LogicalKernel final : public Kernel {
public:
    enum class Op { And, Or, Xor, Not };
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    Op mOp = Op::And;
};

}  // namespace ql
