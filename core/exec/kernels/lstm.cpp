#include "core/exec/kernels/lstm.h"

#include "core/exec/kernels/elementwise_util.h"

namespace ql {

namespace {

constexpr const char* kDefaults[] = {"Sigmoid", "Tanh", "Tanh"};
enum Gate : int64_t { kInput = 0, kOutput = 1, kForget = 2, kCell = 3 };  // ONNX's order in W, R and B

}  // namespace

Status LstmKernel::init(const KernelInit& info) {
    QL_ASSIGN_OR_RETURN(mAttrs, readRecurrentAttributes(info, kDefaults));
    mInputForget = info.node.intAttribute("input_forget", 0) != 0;
    return Status::ok();
}

Status LstmKernel::compute(KernelContext& ctx) {
    QL_ASSIGN_OR_RETURN(const RecurrentInputs in, readRecurrentInputs(ctx, mAttrs, 4));
    QL_ASSIGN_OR_RETURN(Tensor h0, readRecurrentState(ctx, mAttrs, in, 5, "initial_h"));
    QL_ASSIGN_OR_RETURN(Tensor c0, readRecurrentState(ctx, mAttrs, in, 6, "initial_c"));
    Tensor peepholes = ctx.hasInput(7) ? promoteHalf(ctx.input(7)) : Tensor();
    if (!peepholes.empty() && peepholes.shape() != Shape{in.directions, 3 * in.hidden})
        return ctx.fail("P has shape " + shapeString(peepholes.shape()) + "; it must be " +
                        shapeString({in.directions, 3 * in.hidden}));
    RecurrentOutputs out(in, {std::move(h0), std::move(c0)});
    for (int64_t d = 0; d < in.directions; ++d) runDirection(in, peepholes, d, out);
    writeRecurrentOutputs(ctx, mAttrs, std::move(out));
    return Status::ok();
}

void LstmKernel::runDirection(const RecurrentInputs& in, const Tensor& peepholes, int64_t d,
                              RecurrentOutputs& out) const {
    const int64_t hidden = in.hidden, batch = in.batch;
    const RowMatrix projection = inputProjection(in, d, 4);
    Eigen::Map<const RowMatrix> r(in.recurrence(d), 4 * hidden, hidden);
    const RecurrentActivation &f = mAttrs.activation(d, 0), &g = mAttrs.activation(d, 1), &h = mAttrs.activation(d, 2);
    const float* p = peepholes.empty() ? nullptr : peepholes.data<float>() + d * 3 * hidden;
    RowMatrix gates(batch, 4 * hidden), hNext(batch, hidden), cNext(batch, hidden);
    const float clip = mAttrs.clip;
    const RowMatrix* next[] = {&hNext, &cNext};
    for (int64_t step = 0; step < in.seq; ++step) {
        const int64_t t = mAttrs.reversed(d) ? in.seq - 1 - step : step;
        const Eigen::Map<RowMatrix> hPrev = out.state(0, d, in), cPrev = out.state(1, d, in);
        gates.noalias() = projection.middleRows(t * batch, batch);
        gates.noalias() += hPrev * r.transpose();
        for (int64_t b = 0; b < batch; ++b) {
            using Array = Eigen::Map<Eigen::ArrayXf>;
            using ConstArray = Eigen::Map<const Eigen::ArrayXf>;
            float* gate = gates.row(b).data();
            Array i(gate + kInput * hidden, hidden), o(gate + kOutput * hidden, hidden),
                fg(gate + kForget * hidden, hidden), c(gate + kCell * hidden, hidden);
            Array cNew(cNext.row(b).data(), hidden), hNew(hNext.row(b).data(), hidden);
            const ConstArray cOld(cPrev.row(b).data(), hidden);
            if (p) {
                i += ConstArray(p, hidden) * cOld;
                fg += ConstArray(p + 2 * hidden, hidden) * cOld;
            }
            activateClipped(f, i.data(), hidden, clip);
            if (mInputForget)
                fg = 1.0f - i;
            else
                activateClipped(f, fg.data(), hidden, clip);
            activateClipped(g, c.data(), hidden, clip);
            cNew = fg * cOld + i * c;
            if (p) o += ConstArray(p + hidden, hidden) * cNew;
            activateClipped(f, o.data(), hidden, clip);
            hNew = cNew;
            h.apply(hNew.data(), hidden);
            hNew *= o;
        }
        commitStep(out, in, t, d, next);
    }
}

}  // namespace ql
