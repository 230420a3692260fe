#include "core/exec/kernels/image_scaler.h"

#include <onnx/onnx_pb.h>

#include "core/exec/kernels/elementwise_util.h"

namespace ql {

Status ImageScalerKernel::init(const KernelInit& info) {
    mScale = info.node.floatAttribute("scale", 1.0f);
    if (const auto* bias = info.node.attribute("bias")) mBias.assign(bias->floats().begin(), bias->floats().end());
    return Status::ok();
}

Status ImageScalerKernel::compute(KernelContext& ctx) {
    if (!ctx.hasInput(0)) return ctx.fail("needs an input");
    const DataType dtype = ctx.input(0).dtype();
    const Tensor x = promoteHalf(ctx.input(0));
    if (x.rank() != 4) return ctx.fail("the input must be N x C x H x W, not " + shapeString(x.shape()));
    const int64_t channels = x.dim(1), size = x.dim(2) * x.dim(3);
    if (!mBias.empty() && static_cast<int64_t>(mBias.size()) != channels)
        return ctx.fail("bias has " + std::to_string(mBias.size()) + " values for " + std::to_string(channels) +
                        " channels");
    Tensor y(x.dtype(), x.shape());
    const bool ok = visitFloating(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T* in = x.data<T>();
        T* out = y.data<T>();
        for (int64_t plane = 0; plane < x.dim(0) * channels; ++plane) {
            const T bias = mBias.empty() ? T(0) : static_cast<T>(mBias[static_cast<size_t>(plane % channels)]);
            for (int64_t i = 0; i < size; ++i)
                out[plane * size + i] = static_cast<T>(mScale) * in[plane * size + i] + bias;
        }
    });
    if (!ok) return unsupportedType(ctx, dtype);
    setOutputAs(ctx, 0, std::move(y), dtype);
    return Status::ok();
}

}  // namespace ql
