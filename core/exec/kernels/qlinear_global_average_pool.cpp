#include "core/exec/kernels/qlinear_global_average_pool.h"

#include "core/exec/kernels/integer_util.h"

namespace ql {

namespace {

enum Input : size_t { kX = 0, kXScale, kXZero, kYScale, kYZero };

}  // namespace

Status QLinearGlobalAveragePoolKernel::init(const KernelInit& info) {
    mChannelsLast = info.node.intAttribute("channels_last", 0) != 0;
    return Status::ok();
}

Status QLinearGlobalAveragePoolKernel::compute(KernelContext& ctx) {
    QL_RETURN_IF_ERROR(checkEightBit(ctx, kX, "X"));
    const Tensor& x = ctx.input(kX);
    if (x.rank() < 3) return ctx.fail("X must be N x C x spatial... (or channels last), not " + shapeString(x.shape()));
    QL_ASSIGN_OR_RETURN(const Quantization qx, readQuantization(ctx, kXScale, kXZero, x.dtype(), "x"));
    QL_ASSIGN_OR_RETURN(const Quantization qy, readQuantization(ctx, kYScale, kYZero, x.dtype(), "y"));
    const int64_t batch = x.dim(0), channels = mChannelsLast ? x.dim(x.rank() - 1) : x.dim(1);
    const int64_t size = x.elementCount() / std::max<int64_t>(1, batch * channels);
    Shape shape(x.rank(), 1);
    shape[0] = batch;
    shape[mChannelsLast ? x.rank() - 1 : 1] = channels;
    Tensor& y = ctx.allocateOutput(0, qy.type, shape);
    const float multiplier = qx.scale / (qy.scale * static_cast<float>(size));
    const Requantizer requantize{qy.type, qy.zero};
    for (int64_t b = 0; b < batch; ++b)
        for (int64_t c = 0; c < channels; ++c) {
            int64_t sum = 0;
            for (int64_t p = 0; p < size; ++p)
                sum += eightBitAt(x, mChannelsLast ? (b * size + p) * channels + c : (b * channels + c) * size + p);
            const auto acc = static_cast<int32_t>(sum - static_cast<int64_t>(qx.zero) * size);
            setEightBit(y, b * channels + c, requantize.level(acc, multiplier));
        }
    return Status::ok();
}

}  // namespace ql
