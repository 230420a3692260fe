#pragma once
// Runs an ElementwiseChain (core/exec/fusion.h) as one pass: each block of x goes through every node's
// operation while it is in cache. Each operation is the float operation the node's own kernel performs (Erf
// through the same erfFloat), so the chain's output equals the nodes' run one by one to the bit, which the
// INT8 simulation (node by node) relies on.
#include <vector>

#include "core/exec/fusion.h"
#include "core/exec/kernel.h"

namespace ql {

// One node of a chain: its operation and, for the binary ones, the operand beside the running value.
struct ChainOperation {
    enum class Kind { Add, Sub, Mul, Div, Erf } kind = Kind::Erf;
    bool withInput = false;    // the other operand is the chain's input x, else `scalar`
    bool currentFirst = true;  // the running value is the left operand
    float scalar = 0.0f;
};

class ElementwiseChainKernel final : public Kernel {
public:
    ElementwiseChainKernel(const Graph& graph, const ElementwiseChain& chain);
    Status compute(KernelContext& ctx) override;

private:
    std::vector<ChainOperation> mOperations;
};

}  // namespace ql
