#include "core/exec/kernels/dynamic_quantize_linear.h"

#include <Eigen/Core>
#include <cmath>

#include "core/exec/kernels/elementwise_util.h"

namespace ql {

namespace {

uint8_t saturateRound(float v) {
    return static_cast<uint8_t>(std::clamp(std::nearbyint(v), 0.0f, 255.0f));  // ties to even
}

}  // namespace

Status DynamicQuantizeLinearKernel::compute(KernelContext& ctx) {
    if (!ctx.hasInput(0)) return ctx.fail("needs an input");
    const Tensor& x = ctx.input(0);
    if (x.dtype() != DataType::Float) return unsupportedType(ctx, x.dtype());
    Eigen::Map<const Eigen::ArrayXf> in(x.data<float>(), x.elementCount());
    const float lo = std::min(0.0f, x.elementCount() ? in.minCoeff() : 0.0f);
    const float hi = std::max(0.0f, x.elementCount() ? in.maxCoeff() : 0.0f);
    const float scale = (hi - lo) / 255.0f;
    const uint8_t zero = scale == 0.0f ? 0 : saturateRound(-lo / scale);
    Tensor& y = ctx.allocateOutput(0, DataType::UInt8, x.shape());
    if (scale == 0.0f)
        std::fill_n(y.data<uint8_t>(), y.elementCount(), uint8_t{0});
    else
        unaryMap(x.data<float>(), y.data<uint8_t>(), x.elementCount(),
                 [=](float v) { return saturateRound(std::nearbyint(v / scale) + zero); });
    if (ctx.outputCount() > 1) ctx.allocateOutput(1, DataType::Float, {}).data<float>()[0] = scale;
    if (ctx.outputCount() > 2) ctx.allocateOutput(2, DataType::UInt8, {}).data<uint8_t>()[0] = zero;
    return Status::ok();
}

}  // namespace ql
