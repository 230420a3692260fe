#include "core/exec/layout_activation.h"

#include "core/exec/onednn_util.h"

namespace ql {

std::optional<PostOp> LayoutActivationKernel::exactOp(const std::vector<PostOp>& ops) {
    if (ops.size() != 1 || ops[0].sum) return std::nullopt;
    const dnnl::algorithm a = ops[0].algorithm;
    if (a != dnnl::algorithm::eltwise_relu && a != dnnl::algorithm::eltwise_clip) return std::nullopt;
    return ops[0];
}

Status LayoutActivationKernel::compute(KernelContext& ctx) {
    if (!hasLayoutInput(ctx)) return mPlain.compute(ctx);
    const Tensor& x = ctx.input(0);
    if (x.dtype() != DataType::Float || x.elementCount() == 0)
        return computeOnPlain(ctx, [this](KernelContext& plain) { return mPlain.compute(plain); });
    try {
        ctx.setOutput(0, onednn::eltwiseInLayout(mOp, x, mKeepLayout));
    } catch (const dnnl::error& e) {
        return ctx.fail(std::string("oneDNN could not run this activation: ") + e.what());
    }
    return Status::ok();
}

namespace onednn {

Tensor eltwiseInLayout(const PostOp& op, const Tensor& x, bool keepLayout) {
    const auto desc = descOf(x);
    Tensor y = allocateIn(desc, x.shape());
    dnnl::eltwise_forward::primitive_desc pd(
        dnnl::eltwise_forward::desc(dnnl::prop_kind::forward_inference, op.algorithm, desc, op.alpha, op.beta),
        engine());
    dnnl::eltwise_forward(pd).execute(stream(), {{DNNL_ARG_SRC, memoryOf(x)}, {DNNL_ARG_DST, memoryOf(y)}});
    stream().wait();
    return keepLayout ? y : toPlain(y);
}

}  // namespace onednn
}  // namespace ql
