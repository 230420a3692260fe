#pragma once
#include <memory>

#include "core/exec/kernel.h"
#include "core/exec/subgraph.h"

namespace ql {

// If (opsets 1-24): runs then_branch or else_branch on the single-element condition; the branches read the
// enclosing graph's values (outer scope) and their outputs become the node's. Tensor outputs only (a branch that
// yields a sequence or an optional needs the ops that make them, which the executor does not have).
class IfKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;
    std::vector<std::string> outerScopeInputs() const override { return mOuterScope; }

private:
    std::unique_ptr<Subgraph> mThen, mElse;
    std::vector<std::string> mOuterScope;
};

}  // namespace ql
