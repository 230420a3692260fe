#include "core/exec/kernels/global_pool.h"

#include <algorithm>

#include "core/exec/kernels/pool_geometry.h"
#include "core/exec/kernels/type_dispatch.h"

namespace ql {

namespace {

template <typename T>
void globalPool(const T* in, T* out, int64_t planes, int64_t size, bool max) {
    using A = typename ArithmeticOf<T>::type;
#pragma omp parallel for schedule(static)
    for (int64_t p = 0; p < planes; ++p) {
        const T* src = in + p * size;
        A acc = size > 0 && max ? toArithmetic(src[0]) : A{};
        for (int64_t i = 0; i < size; ++i) {
            const A v = toArithmetic(src[i]);
            acc = max ? std::max(acc, v) : static_cast<A>(acc + v);
        }
        out[p] = fromArithmetic<T>(max || size == 0 ? acc : static_cast<A>(acc / static_cast<A>(size)));
    }
}

// One window covering the H x W plane.
PoolWindow wholePlane(const Shape& x) {
    PoolWindow w;
    w.batch = x[0];
    w.channels = x[1];
    w.in = {1, x[2], x[3]};
    w.out = {1, 1, 1};
    w.kernel = w.in;
    w.stride = w.dilation = {1, 1, 1};
    w.outputShape = {x[0], x[1], 1, 1};
    return w;
}

}  // namespace

Status GlobalPoolKernel::init(const KernelInit& info) {
    mMax = info.node.opType == "GlobalMaxPool";
    return Status::ok();
}

Status GlobalPoolKernel::compute(KernelContext& ctx) {
    if (!hasLayoutInput(ctx)) return computePlain(ctx);
    if (ctx.input(0).rank() == 4) {
        const auto op = mMax ? dnnl::algorithm::pooling_max : dnnl::algorithm::pooling_avg_exclude_padding;
        // The output is tiny: always plain.
        QL_ASSIGN_OR_RETURN(bool done, poolLayoutInput(ctx, op, wholePlane(ctx.input(0).shape()), false, mPoolCache));
        if (done) return Status::ok();
    }
    return computeOnPlain(ctx, [this](KernelContext& plain) { return computePlain(plain); });
}

Status GlobalPoolKernel::computePlain(KernelContext& ctx) const {
    const Tensor& in = ctx.input(0);
    if (in.rank() < 2) return ctx.fail("the input must be N x C x spatial..., not " + shapeString(in.shape()));
    Shape shape(in.rank(), 1);
    shape[0] = in.dim(0);
    shape[1] = in.dim(1);
    const int64_t planes = in.dim(0) * in.dim(1);
    const int64_t size = planes == 0 ? 0 : in.elementCount() / planes;
    Tensor& out = ctx.allocateOutput(0, in.dtype(), shape);
    bool floating = false;
    visitNumeric(in.dtype(), [&]<typename T>(T) {
        if constexpr (std::is_floating_point_v<typename ArithmeticOf<T>::type>) {
            globalPool(in.data<T>(), out.data<T>(), planes, size, mMax);
            floating = true;
        }
    });
    if (!floating)
        return ctx.fail(std::string("dtype ") + dataTypeName(in.dtype()) + " is not supported (float types only)");
    return Status::ok();
}

}  // namespace ql
