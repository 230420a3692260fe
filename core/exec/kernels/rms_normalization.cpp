#include "core/exec/kernels/rms_normalization.h"

#include <cmath>

#include "core/exec/kernels/elementwise_util.h"

namespace ql {

namespace {

template <typename T>
void normalizeRms(const T* x, const T* scale, T* y, int64_t rows, int64_t length, double epsilon) {
    parallelFor(
        rows, std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(1, length)), [&](int64_t begin, int64_t end) {
            for (int64_t r = begin; r < end; ++r) {
                const T* in = x + r * length;
                T squares = 0;
                for (int64_t i = 0; i < length; ++i) squares += in[i] * in[i];
                const T inv = T(1) / static_cast<T>(std::sqrt(static_cast<double>(squares) /
                                                                  static_cast<double>(std::max<int64_t>(1, length)) +
                                                              epsilon));
                for (int64_t i = 0; i < length; ++i) y[r * length + i] = in[i] * inv * scale[i];
            }
        });
}

}  // namespace

Status RmsNormalizationKernel::init(const KernelInit& info) {
    mAxis = info.node.intAttribute("axis", -1);
    mEpsilon = info.node.floatAttribute("epsilon", 1e-5f);
    return Status::ok();
}

Status RmsNormalizationKernel::compute(KernelContext& ctx) {
    if (!ctx.hasInput(0) || !ctx.hasInput(1)) return ctx.fail("needs inputs X and scale");
    const DataType dtype = ctx.input(0).dtype();
    const Tensor x = promoteHalf(ctx.input(0)), scale = promoteHalf(ctx.input(1));
    const auto axis = normalizeAxis(mAxis, static_cast<int64_t>(x.rank()));
    if (!axis) return ctx.fail("axis " + std::to_string(mAxis) + " is out of range for " + shapeString(x.shape()));
    const Shape normShape(x.shape().begin() + *axis, x.shape().end());
    const auto broadcast = broadcastShapes(scale.shape(), normShape);
    if (!broadcast || *broadcast != normShape || scale.dtype() != x.dtype())
        return ctx.fail("scale " + shapeString(scale.shape()) + " does not broadcast to the normalized shape " +
                        shapeString(normShape) + " of the input's type");
    const Tensor fullScale = broadcastTo(scale, normShape);
    const int64_t length = shapeElementCount(normShape), rows = x.elementCount() / std::max<int64_t>(1, length);
    Tensor y(x.dtype(), x.shape());
    const bool ok = visitFloating(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        normalizeRms(x.data<T>(), fullScale.data<T>(), y.data<T>(), rows, length, mEpsilon);
    });
    if (!ok) return unsupportedType(ctx, dtype);
    setOutputAs(ctx, 0, std::move(y), dtype);
    return Status::ok();
}

}  // namespace ql
