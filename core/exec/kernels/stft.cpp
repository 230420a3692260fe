#include "core/exec/kernels/stft.h"

#include <complex>

#include "core/exec/kernels/copy_util.h"
#include "core/exec/kernels/dft.h"
#include "core/exec/kernels/loss_util.h"

namespace ql {

Status StftKernel::init(const KernelInit& info) {
    mOnesided = info.node.intAttribute("onesided", 1) != 0;
    return Status::ok();
}

Status StftKernel::compute(KernelContext& ctx) {
    if (!ctx.hasInput(0) || !ctx.hasInput(1)) return ctx.fail("needs inputs signal and frame_step");
    const Tensor& signal = ctx.input(0);
    if (signal.rank() != 3 || (signal.dim(2) != 1 && signal.dim(2) != 2))
        return ctx.fail("the signal must be [batch, length, 1 or 2], not " + shapeString(signal.shape()));
    QL_ASSIGN_OR_RETURN(const std::vector<int64_t> step, readInt64Input(ctx, 1));
    std::vector<float> window;
    if (ctx.hasInput(2)) window = ctx.input(2).toFloats();
    int64_t frameLength = static_cast<int64_t>(window.size());
    if (ctx.hasInput(3)) {
        QL_ASSIGN_OR_RETURN(const std::vector<int64_t> n, readInt64Input(ctx, 3));
        if (n.size() != 1) return ctx.fail("frame_length must be one integer");
        frameLength = n[0];
    }
    const int64_t batch = signal.dim(0), length = signal.dim(1);
    if (step.size() != 1 || step[0] < 1 || frameLength < 1 || frameLength > length ||
        (!window.empty() && static_cast<int64_t>(window.size()) != frameLength))
        return ctx.fail("frame_step must be positive, and frame_length (or the window's length) in [1, " +
                        std::to_string(length) + "] and equal to the window's length");
    const int64_t frames = 1 + (length - frameLength) / step[0], bins = mOnesided ? frameLength / 2 + 1 : frameLength;
    const bool complexInput = signal.dim(2) == 2;
    const std::vector<float> values = signal.toFloats();
    std::vector<std::complex<double>> frame(static_cast<size_t>(frameLength)), out(static_cast<size_t>(bins));
    std::vector<double> flat;
    for (int64_t b = 0; b < batch; ++b)
        for (int64_t f = 0; f < frames; ++f) {
            for (int64_t k = 0; k < frameLength; ++k) {
                const auto i = static_cast<size_t>((b * length + f * step[0] + k) * signal.dim(2));
                const double w = window.empty() ? 1.0 : window[static_cast<size_t>(k)];
                frame[static_cast<size_t>(k)] = std::complex<double>(values[i], complexInput ? values[i + 1] : 0.0) * w;
            }
            dftLine(frame.data(), frameLength, 1, frameLength, false, bins, out.data(), 1);
            for (const auto& c : out) flat.insert(flat.end(), {c.real(), c.imag()});
        }
    ctx.setOutput(0, floatingTensor(signal.dtype(), {batch, frames, bins, 2}, flat));
    return Status::ok();
}

}  // namespace ql
