#pragma once
#include <memory>

#include "core/exec/kernel.h"
#include "core/exec/subgraph.h"

namespace ql {

// Scan: runs the body once per slice of the M scan inputs, carrying N state values from one iteration to the
// next, and stacks the K scan outputs of the body.
// - Opsets 9-24: scan_input_axes / scan_input_directions / scan_output_axes / scan_output_directions (negative
//   axes from opset 11), no batch axis.
// - Opset 8: inputs and states have a leading batch axis, scan inputs are scanned along axis 1 (`directions`),
//   and the optional sequence_lens input (first) stops a batch entry early; its scan outputs are zero past it.
// The body reads the enclosing graph's values (outer scope).
class ScanKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;
    std::vector<std::string> outerScopeInputs() const override { return mOuterScope; }

private:
    struct Pass {  // one scan over unbatched inputs
        std::vector<Tensor> states, inputs;
        int64_t steps = 0;
    };
    Result<std::vector<Tensor>> scan(KernelContext& ctx, Pass pass, int64_t paddedSteps);
    Status computeBatched(KernelContext& ctx);
    Result<int64_t> sequenceLength(const KernelContext& ctx, const std::vector<Tensor>& inputs) const;

    std::unique_ptr<Subgraph> mBody;
    std::vector<std::string> mOuterScope;
    bool mBatched = false;    // opset 8
    size_t mFirstState = 0;   // 1 with opset 8's sequence_lens input
    size_t mStates = 0;       // N
    size_t mScanInputs = 0;   // M
    size_t mScanOutputs = 0;  // K
    std::vector<int64_t> mInputAxes, mInputDirections, mOutputAxes, mOutputDirections;
};

}  // namespace ql
