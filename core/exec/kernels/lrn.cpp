#include "core/exec/kernels/lrn.h"

#include <Eigen/Core>

#include "core/exec/kernels/elementwise_util.h"

namespace ql {

namespace {

template <typename T>
void lrn(const T* x, T* y, AxisSplit s, int64_t size, T alpha, T beta, T bias) {
    using Array = Eigen::Array<T, Eigen::Dynamic, 1>;
    const int64_t before = (size - 1) / 2, after = size - 1 - before;
    parallelFor(s.outer * s.axis, 1, [&](int64_t begin, int64_t end) {
        Array sum(s.inner);
        for (int64_t j = begin; j < end; ++j) {
            const int64_t n = j / s.axis, c = j % s.axis;
            sum.setZero();
            for (int64_t k = std::max<int64_t>(0, c - before); k <= std::min(s.axis - 1, c + after); ++k)
                sum += Eigen::Map<const Array>(x + (n * s.axis + k) * s.inner, s.inner).square();
            Eigen::Map<Array>(y + j * s.inner, s.inner) =
                Eigen::Map<const Array>(x + j * s.inner, s.inner) / (bias + alpha / T(size) * sum).pow(beta);
        }
    });
}

}  // namespace

Status LrnKernel::init(const KernelInit& info) {
    mSize = info.node.intAttribute("size", 0);
    if (mSize < 1) return info.fail("needs the 'size' attribute (a positive window size)");
    mAlpha = info.node.floatAttribute("alpha", 1e-4f);
    mBeta = info.node.floatAttribute("beta", 0.75f);
    mBias = info.node.floatAttribute("bias", 1.0f);
    return Status::ok();
}

Status LrnKernel::compute(KernelContext& ctx) {
    if (!ctx.hasInput(0)) return ctx.fail("needs an input");
    const DataType dtype = ctx.input(0).dtype();
    const Tensor x = promoteHalf(ctx.input(0));
    if (x.rank() < 2)
        return ctx.fail("input must have at least 2 dimensions [N, C, ...], got " + shapeString(x.shape()));
    Tensor y(x.dtype(), x.shape());
    const bool ok = visitFloating(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        lrn<T>(x.data<T>(), y.data<T>(), splitAtAxis(x.shape(), 1), mSize, T(mAlpha), T(mBeta), T(mBias));
    });
    if (!ok) return unsupportedType(ctx, dtype);
    setOutputAs(ctx, 0, std::move(y), dtype);
    return Status::ok();
}

}  // namespace ql
