#include "core/exec/kernels/negative_log_likelihood_loss.h"

namespace ql {

Status NegativeLogLikelihoodLossKernel::init(const KernelInit& info) {
    QL_ASSIGN_OR_RETURN(mAttrs, readLossAttributes(info));
    return Status::ok();
}

Status NegativeLogLikelihoodLossKernel::compute(KernelContext& ctx) {
    if (!ctx.hasInput(0)) return ctx.fail("needs the input");
    const Tensor& x = ctx.input(0);
    const std::vector<float> values = x.toFloats();
    std::vector<double> logProb(values.begin(), values.end());
    if (x.dtype() == DataType::Double) logProb.assign(x.data<double>(), x.data<double>() + x.elementCount());
    QL_ASSIGN_OR_RETURN(Tensor loss, negativeLogLikelihood(ctx, mAttrs, logProb, x.shape(), x.dtype()));
    ctx.setOutput(0, std::move(loss));
    return Status::ok();
}

}  // namespace ql
