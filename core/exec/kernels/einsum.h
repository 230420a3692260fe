#pragma once
#include <string>

#include "core/exec/kernel.h"

namespace ql {

// Einsum over any number of operands: explicit ("ij,jk->ik") and implicit ("ij,jk") output, repeated labels
// within an operand (diagonals, "ii->i"), summed labels and "..." broadcast dims. A direct loop over the
// label space: meant for the small contractions exported models use, not as a fast MatMul.
class EinsumKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    std::string mEquation;
};

}  // namespace ql
