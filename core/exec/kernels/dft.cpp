#include "core/exec/kernels/dft.h"

#include <cmath>
#include <numbers>

#include "core/exec/kernels/copy_util.h"
#include "core/exec/kernels/loss_util.h"

namespace ql {

void dftLine(const std::complex<double>* x, int64_t available, int64_t stride, int64_t length, bool inverse,
             int64_t outputs, std::complex<double>* out, int64_t outStride) {
    const double sign = inverse ? 1.0 : -1.0;
    for (int64_t k = 0; k < outputs; ++k) {
        std::complex<double> sum = 0;
        for (int64_t n = 0; n < std::min(available, length); ++n) {
            const double angle =
                sign * 2.0 * std::numbers::pi * static_cast<double>((k * n) % length) / static_cast<double>(length);
            sum += x[n * stride] * std::complex<double>(std::cos(angle), std::sin(angle));
        }
        out[k * outStride] = inverse ? sum / static_cast<double>(length) : sum;
    }
}

Status DftKernel::init(const KernelInit& info) {
    mAxisInput = info.opset >= 20;
    mAxis = info.node.intAttribute("axis", mAxisInput ? -2 : 1);
    mInverse = info.node.intAttribute("inverse", 0) != 0;
    mOnesided = info.node.intAttribute("onesided", 0) != 0;
    return Status::ok();
}

Status DftKernel::compute(KernelContext& ctx) {
    if (!ctx.hasInput(0)) return ctx.fail("needs an input");
    const Tensor& x = ctx.input(0);
    if (x.rank() < 2 || (x.dim(x.rank() - 1) != 1 && x.dim(x.rank() - 1) != 2))
        return ctx.fail("the input must end in an axis of 1 (real) or 2 (complex) values, not " +
                        shapeString(x.shape()));
    int64_t axisValue = mAxis;
    if (mAxisInput && ctx.hasInput(2)) {
        QL_ASSIGN_OR_RETURN(const std::vector<int64_t> a, readInt64Input(ctx, 2));
        if (a.size() != 1) return ctx.fail("axis must be one integer");
        axisValue = a[0];
    }
    const auto signalRank = static_cast<int64_t>(x.rank()) - 1;
    const auto axis = normalizeAxis(axisValue, signalRank);
    if (!axis || *axis == 0) return ctx.fail("axis " + std::to_string(axisValue) + " is not a signal axis");
    const int64_t available = x.dim(static_cast<size_t>(*axis));
    int64_t length = available;
    if (ctx.hasInput(1) && ctx.input(1).elementCount() > 0) {
        QL_ASSIGN_OR_RETURN(const std::vector<int64_t> n, readInt64Input(ctx, 1));
        if (n.size() != 1 || n[0] < 1) return ctx.fail("dft_length must be one positive integer");
        length = n[0];
    }
    const int64_t outputs = mOnesided ? length / 2 + 1 : length;
    const bool complexInput = x.dim(x.rank() - 1) == 2;
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < signalRank; ++d) {
        if (d < *axis) outer *= x.dim(static_cast<size_t>(d));
        if (d > *axis) inner *= x.dim(static_cast<size_t>(d));
    }
    std::vector<std::complex<double>> in(static_cast<size_t>(outer * available * inner));
    const std::vector<float> values = x.toFloats();
    for (size_t i = 0; i < in.size(); ++i)
        in[i] =
            complexInput ? std::complex<double>(values[2 * i], values[2 * i + 1]) : std::complex<double>(values[i], 0);
    std::vector<std::complex<double>> out(static_cast<size_t>(outer * outputs * inner));
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i)
            dftLine(in.data() + o * available * inner + i, available, inner, length, mInverse, outputs,
                    out.data() + o * outputs * inner + i, inner);
    Shape shape = x.shape();
    shape[static_cast<size_t>(*axis)] = outputs;
    shape.back() = 2;
    std::vector<double> flat;
    for (const auto& c : out) flat.insert(flat.end(), {c.real(), c.imag()});
    ctx.setOutput(0, floatingTensor(x.dtype(), shape, flat));
    return Status::ok();
}

}  // namespace ql
