#include "core/exec/kernels/layer_normalization.h"

#include <Eigen/Core>
#include <cmath>

#include "core/exec/kernels/elementwise_util.h"

namespace ql {

template <typename T>
void normalizeRows(const T* x, T* y, int64_t rows, int64_t length, double epsilon, const RowNormalization<T>& extra) {
    using Array = Eigen::Array<T, Eigen::Dynamic, 1>;
    const int64_t grain = std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(1, length));
    parallelFor(rows, grain, [&](int64_t begin, int64_t end) {
        for (int64_t r = begin; r < end; ++r) {
            Eigen::Map<const Array> in(x + r * length, length);
            Eigen::Map<Array> out(y + r * length, length);
            const T mean = length ? in.mean() : T(0);
            const T var = length ? (in - mean).square().mean() : T(0);
            const T inv = T(1) / static_cast<T>(std::sqrt(static_cast<double>(var) + epsilon));
            if (extra.scale && extra.bias)
                out = (in - mean) * inv * Eigen::Map<const Array>(extra.scale, length) +
                      Eigen::Map<const Array>(extra.bias, length);
            else if (extra.scale)
                out = (in - mean) * inv * Eigen::Map<const Array>(extra.scale, length);
            else
                out = (in - mean) * inv;
            if (extra.means) extra.means[r] = mean;
            if (extra.invStdDevs) extra.invStdDevs[r] = inv;
        }
    });
}

template void normalizeRows<float>(const float*, float*, int64_t, int64_t, double, const RowNormalization<float>&);
template void normalizeRows<double>(const double*, double*, int64_t, int64_t, double, const RowNormalization<double>&);

Status LayerNormalizationKernel::init(const KernelInit& info) {
    mAxis = info.node.intAttribute("axis", -1);
    mEpsilon = info.node.floatAttribute("epsilon", 1e-5f);
    return Status::ok();
}

Status LayerNormalizationKernel::compute(KernelContext& ctx) {
    if (!ctx.hasInput(0) || !ctx.hasInput(1)) return ctx.fail("needs inputs X and Scale");
    const DataType dtype = ctx.input(0).dtype();
    const Tensor x = promoteHalf(ctx.input(0));
    const auto axis = normalizeAxis(mAxis, static_cast<int64_t>(x.rank()));
    if (!axis)
        return ctx.fail("axis " + std::to_string(mAxis) + " is out of range for shape " + shapeString(x.shape()));
    const Shape normShape(x.shape().begin() + *axis, x.shape().end());
    const int64_t length = shapeElementCount(normShape), rows = x.elementCount() / std::max<int64_t>(1, length);
    Shape statShape = x.shape();
    for (size_t d = static_cast<size_t>(*axis); d < statShape.size(); ++d) statShape[d] = 1;
    Tensor params[2];
    for (size_t i = 0; i < 2; ++i) {
        if (!ctx.hasInput(i + 1)) continue;
        const Tensor p = promoteHalf(ctx.input(i + 1));
        const auto shape = broadcastShapes(p.shape(), normShape);
        if (!shape || *shape != normShape || p.dtype() != x.dtype())
            return ctx.fail(std::string(i ? "B" : "Scale") + " of shape " + shapeString(p.shape()) + " and type " +
                            dataTypeName(ctx.input(i + 1).dtype()) + " does not broadcast to the normalized shape " +
                            shapeString(normShape) + " of type " + dataTypeName(dtype));
        params[i] = broadcastTo(p, normShape);
    }
    Tensor y(x.dtype(), x.shape()), mean(x.dtype(), statShape), invStd(x.dtype(), statShape);
    const bool ok = visitFloating(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        const RowNormalization<T> extra{params[0].data<T>(), params[1].empty() ? nullptr : params[1].data<T>(),
                                        mean.data<T>(), invStd.data<T>()};
        normalizeRows<T>(x.data<T>(), y.data<T>(), rows, length, mEpsilon, extra);
    });
    if (!ok) return unsupportedType(ctx, dtype);
    setOutputAs(ctx, 0, std::move(y), dtype);
    // Mean and InvStdDev keep the compute type (float for float16 inputs, as stash_type 1 says).
    if (ctx.outputCount() > 1) ctx.setOutput(1, std::move(mean));
    if (ctx.outputCount() > 2) ctx.setOutput(2, std::move(invStd));
    return Status::ok();
}

}  // namespace ql
