#include "core/exec/layout_activation.h"

#include <algorithm>

#include "core/exec/onednn_util.h"

namespace ql {

bool LayoutActivationKernel::exact(const std::vector<PostOp>& ops) {
    return std::all_of(ops.begin(), ops.end(), [](const PostOp& op) {
        return !op.sum &&
               (op.algorithm == dnnl::algorithm::eltwise_relu || op.algorithm == dnnl::algorithm::eltwise_clip);
    });
}

Status LayoutActivationKernel::compute(KernelContext& ctx) {
    if (!hasLayoutInput(ctx)) return mPlain.compute(ctx);
    const Tensor& x = ctx.input(0);
    if (x.dtype() != DataType::Float || x.elementCount() == 0)
        return computeOnPlain(ctx, [this](KernelContext& plain) { return mPlain.compute(plain); });
    try {
        ctx.setOutput(0, onednn::eltwiseInLayout(mOps, x, mKeepLayout));
    } catch (const dnnl::error& e) {
        return ctx.fail(std::string("oneDNN could not run this activation: ") + e.what());
    }
    return Status::ok();
}

namespace onednn {

Tensor eltwiseInLayout(const std::vector<PostOp>& ops, const Tensor& x, bool keepLayout) {
    const auto desc = descOf(x);
    Tensor y = allocateIn(desc, x.shape());
    // One primitive per op (HardSigmoid is a linear then a clip), the later ones in place on y.
    for (size_t i = 0; i < ops.size(); ++i) {
        dnnl::eltwise_forward::primitive_desc pd(
            dnnl::eltwise_forward::desc(dnnl::prop_kind::forward_inference, ops[i].algorithm, desc, ops[i].alpha,
                                        ops[i].beta),
            engine());
        dnnl::eltwise_forward(pd).execute(stream(),
                                          {{DNNL_ARG_SRC, memoryOf(i == 0 ? x : y)}, {DNNL_ARG_DST, memoryOf(y)}});
    }
    stream().wait();
    return keepLayout ? y : toPlain(y);
}

}  // namespace onednn
}  // namespace ql
