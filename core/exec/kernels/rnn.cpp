#include "core/exec/kernels/rnn.h"

namespace ql {

namespace {

constexpr const char* kDefaults[] = {"Tanh"};

}  // namespace

Status RnnKernel::init(const KernelInit& info) {
    QL_ASSIGN_OR_RETURN(mAttrs, readRecurrentAttributes(info, kDefaults));
    return Status::ok();
}

Status RnnKernel::compute(KernelContext& ctx) {
    QL_ASSIGN_OR_RETURN(const RecurrentInputs in, readRecurrentInputs(ctx, mAttrs, 1));
    QL_ASSIGN_OR_RETURN(Tensor h0, readRecurrentState(ctx, mAttrs, in, 5, "initial_h"));
    RecurrentOutputs out(in, {std::move(h0)});
    RowMatrix hNext(in.batch, in.hidden);
    const RowMatrix* next[] = {&hNext};
    for (int64_t d = 0; d < in.directions; ++d) {
        const RowMatrix projection = inputProjection(in, d, 1);
        Eigen::Map<const RowMatrix> r(in.recurrence(d), in.hidden, in.hidden);
        for (int64_t step = 0; step < in.seq; ++step) {
            const int64_t t = mAttrs.reversed(d) ? in.seq - 1 - step : step;
            hNext.noalias() = projection.middleRows(t * in.batch, in.batch);
            hNext.noalias() += out.state(0, d, in) * r.transpose();
            for (int64_t b = 0; b < in.batch; ++b)
                activateClipped(mAttrs.activation(d, 0), hNext.row(b).data(), in.hidden, mAttrs.clip);
            commitStep(out, in, t, d, next);
        }
    }
    writeRecurrentOutputs(ctx, mAttrs, std::move(out));
    return Status::ok();
}

}  // namespace ql
