#include "core/exec/kernels/instance_normalization.h"

#include <Eigen/Core>

#include "core/exec/kernels/elementwise_util.h"
#include "core/exec/kernels/layer_normalization.h"

namespace ql {

Status InstanceNormalizationKernel::init(const KernelInit& info) {
    mEpsilon = info.node.floatAttribute("epsilon", 1e-5f);
    return Status::ok();
}

Status InstanceNormalizationKernel::compute(KernelContext& ctx) {
    for (size_t i = 0; i < 3; ++i)
        if (!ctx.hasInput(i)) return ctx.fail("needs inputs input, scale and B");
    const DataType dtype = ctx.input(0).dtype();
    const Tensor x = promoteHalf(ctx.input(0));
    if (x.rank() < 2)
        return ctx.fail("input must have at least 2 dimensions [N, C, ...], got " + shapeString(x.shape()));
    const AxisSplit s = splitAtAxis(x.shape(), 1);
    const std::vector<double> scale = valuesAsDouble(ctx.input(1)), bias = valuesAsDouble(ctx.input(2));
    if (static_cast<int64_t>(scale.size()) != s.axis || static_cast<int64_t>(bias.size()) != s.axis)
        return ctx.fail("scale and B must have one value per channel (" + std::to_string(s.axis) + ")");
    Tensor y(x.dtype(), x.shape());
    const bool ok = visitFloating(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        const int64_t planes = s.outer * s.axis;
        normalizeRows<T>(x.data<T>(), y.data<T>(), planes, s.inner, mEpsilon);
        for (int64_t p = 0; p < planes; ++p) {
            const size_t c = static_cast<size_t>(p % s.axis);
            Eigen::Map<Eigen::Array<T, Eigen::Dynamic, 1>> plane(y.data<T>() + p * s.inner, s.inner);
            plane = plane * T(scale[c]) + T(bias[c]);
        }
    });
    if (!ok) return unsupportedType(ctx, dtype);
    setOutputAs(ctx, 0, std::move(y), dtype);
    return Status::ok();
}

}  // namespace ql
