#pragma once
#include <memory>

#include "core/exec/kernel.h"
#include "core/exec/subgraph.h"

namespace ql {

// Loop (opsets 1-24): runs the body while the iteration count M (optional) and the condition (optional) allow,
// carrying N values from one iteration to the next; the K scan outputs of the body are stacked along a new first
// axis. The body reads the enclosing graph's values (outer scope). Tensor values only (no sequences/optionals).
class LoopKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;
    std::vector<std::string> outerScopeInputs() const override { return mOuterScope; }

private:
    std::unique_ptr<Subgraph> mBody;
    std::vector<std::string> mOuterScope;
    size_t mCarried = 0;  // N
};

}  // namespace ql
