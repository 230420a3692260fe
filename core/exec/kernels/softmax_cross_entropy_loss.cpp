#include "core/exec/kernels/softmax_cross_entropy_loss.h"

#include <algorithm>
#include <cmath>

namespace ql {

namespace {

// log_softmax over axis 1 of [N, C, inner] values.
std::vector<double> logSoftmax(const std::vector<double>& x, int64_t n, int64_t classes, int64_t inner) {
    std::vector<double> out(x.size());
    for (int64_t s = 0; s < n; ++s)
        for (int64_t p = 0; p < inner; ++p) {
            auto at = [&](int64_t c) { return static_cast<size_t>((s * classes + c) * inner + p); };
            double top = -INFINITY, sum = 0.0;
            for (int64_t c = 0; c < classes; ++c) top = std::max(top, x[at(c)]);
            for (int64_t c = 0; c < classes; ++c) sum += std::exp(x[at(c)] - top);
            const double log = std::log(sum);
            for (int64_t c = 0; c < classes; ++c) out[at(c)] = x[at(c)] - top - log;
        }
    return out;
}

}  // namespace

Status SoftmaxCrossEntropyLossKernel::init(const KernelInit& info) {
    QL_ASSIGN_OR_RETURN(mAttrs, readLossAttributes(info));
    return Status::ok();
}

Status SoftmaxCrossEntropyLossKernel::compute(KernelContext& ctx) {
    if (!ctx.hasInput(0)) return ctx.fail("needs the scores");
    const Tensor& x = ctx.input(0);
    if (x.rank() < 2) return ctx.fail("the scores must be [N, C, d...], not " + shapeString(x.shape()));
    std::vector<double> scores;
    if (x.dtype() == DataType::Double) {
        scores.assign(x.data<double>(), x.data<double>() + x.elementCount());
    } else {
        const std::vector<float> values = x.toFloats();
        scores.assign(values.begin(), values.end());
    }
    const int64_t n = x.dim(0), classes = x.dim(1);
    const std::vector<double> logProb =
        logSoftmax(scores, n, classes, x.elementCount() / std::max<int64_t>(1, n * classes));
    QL_ASSIGN_OR_RETURN(Tensor loss, negativeLogLikelihood(ctx, mAttrs, logProb, x.shape(), x.dtype()));
    ctx.setOutput(0, std::move(loss));
    if (ctx.outputCount() > 1) ctx.setOutput(1, floatingTensor(x.dtype(), x.shape(), logProb));
    return Status::ok();
}

}  // namespace ql
