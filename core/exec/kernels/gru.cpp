#include "core/exec/kernels/gru.h"

namespace ql {

namespace {

constexpr const char* kDefaults[] = {"Sigmoid", "Tanh"};

}  // namespace

Status GruKernel::init(const KernelInit& info) {
    QL_ASSIGN_OR_RETURN(mAttrs, readRecurrentAttributes(info, kDefaults));
    mLinearBeforeReset = info.node.intAttribute("linear_before_reset", 0) != 0;
    return Status::ok();
}

Status GruKernel::compute(KernelContext& ctx) {
    QL_ASSIGN_OR_RETURN(const RecurrentInputs in, readRecurrentInputs(ctx, mAttrs, 3));
    QL_ASSIGN_OR_RETURN(Tensor h0, readRecurrentState(ctx, mAttrs, in, 5, "initial_h"));
    RecurrentOutputs out(in, {std::move(h0)});
    for (int64_t d = 0; d < in.directions; ++d) runDirection(in, d, out);
    writeRecurrentOutputs(ctx, mAttrs, std::move(out));
    return Status::ok();
}

// z, r = f(x·W + h·R + biases); h' = g(x·Wh + (r ⊙ h)·Rh + biases), or with linear_before_reset
// g(x·Wh + Wbh + r ⊙ (h·Rh + Rbh)); the new state is (1 - z) ⊙ h' + z ⊙ h.
void GruKernel::runDirection(const RecurrentInputs& in, int64_t d, RecurrentOutputs& out) const {
    const int64_t hidden = in.hidden, batch = in.batch;
    const RowMatrix projection = inputProjection(in, d, mLinearBeforeReset ? 2 : 3);
    Eigen::Map<const RowMatrix> r(in.recurrence(d), 3 * hidden, hidden);
    const auto rZR = r.topRows(2 * hidden), rH = r.bottomRows(hidden);
    const Eigen::Map<const Eigen::RowVectorXf> rbH(in.recurrentBias(d) + 2 * hidden, hidden);
    const RecurrentActivation &f = mAttrs.activation(d, 0), &g = mAttrs.activation(d, 1);
    RowMatrix zr(batch, 2 * hidden), candidate(batch, hidden), recurrent(batch, hidden), hNext(batch, hidden);
    const RowMatrix* next[] = {&hNext};
    for (int64_t step = 0; step < in.seq; ++step) {
        const int64_t t = mAttrs.reversed(d) ? in.seq - 1 - step : step;
        const Eigen::Map<RowMatrix> hPrev = out.state(0, d, in);
        const auto rows = projection.middleRows(t * batch, batch);
        zr.noalias() = rows.leftCols(2 * hidden);
        zr.noalias() += hPrev * rZR.transpose();
        for (int64_t b = 0; b < batch; ++b) activateClipped(f, zr.row(b).data(), 2 * hidden, mAttrs.clip);
        const auto z = zr.leftCols(hidden).array(), reset = zr.rightCols(hidden).array();
        if (mLinearBeforeReset) {
            recurrent.noalias() = hPrev * rH.transpose();
            recurrent.rowwise() += rbH;
            candidate = rows.rightCols(hidden).array() + reset * recurrent.array();
        } else {
            recurrent = (reset * hPrev.array()).matrix();
            candidate = rows.rightCols(hidden);
            candidate.noalias() += recurrent * rH.transpose();
        }
        for (int64_t b = 0; b < batch; ++b) activateClipped(g, candidate.row(b).data(), hidden, mAttrs.clip);
        hNext = ((1.0f - z) * candidate.array() + z * hPrev.array()).matrix();
        commitStep(out, in, t, d, next);
    }
}

}  // namespace ql
