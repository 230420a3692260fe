#pragma once
// An activation node (Relu, LeakyRelu, Clip: see exact()) whose input is in a oneDNN layout runs as a oneDNN
// eltwise in that layout. Activations the fusion pass could not fold into a Conv
// (after a pooling or a Concat, or when a run observes the Conv's own output and the group runs node by node)
// then need no reorder to NCHW and back. The executor puts it in front of the registry's kernel; plain inputs
// go to that kernel.
#include <optional>
#include <vector>

#include "core/exec/kernel.h"
#include "core/exec/kernels/onednn_layer.h"
#include "core/exec/layout_ops.h"

namespace ql {

class LayoutActivationKernel final : public Kernel, public LayoutAwareKernel {
public:
    LayoutActivationKernel(Kernel& plain, PostOp op) : mPlain(plain), mOp(op) {}
    Status compute(KernelContext& ctx) override;
    uint32_t layoutInputs() const override { return 1u; }
    // The one eltwise of `ops` when oneDNN computes it to the bit as the registry's kernels do (Relu, LeakyRelu,
    // Clip: no rounding of their own), else nullopt. Only those are wrapped: the INT8 simulation runs the
    // registry's kernels, and a sigmoid rounded differently in the exported model's run flips the odd int8
    // code downstream.
    static std::optional<PostOp> exactOp(const std::vector<PostOp>& ops);

private:
    Kernel& mPlain;
    PostOp mOp;
};

namespace onednn {

// The eltwise `op` applied to a float tensor in any layout; the result keeps that layout when `keepLayout`,
// else it is plain.
Tensor eltwiseInLayout(const PostOp& op, const Tensor& x, bool keepLayout);

}  // namespace onednn
}  // namespace ql
