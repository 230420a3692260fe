#include "core/exec/kernels/lp_pool.h"

#include <onnx/onnx_pb.h>

#include <cmath>

#include "core/exec/kernels/elementwise_util.h"

namespace ql {

namespace {

template <typename T>
T powerOf(T v, T p) {
    const T a = std::abs(v);
    return p == T(2) ? a * a : p == T(1) ? a : std::pow(a, p);
}

template <typename T>
T rootOf(T sum, T p) {
    return p == T(2) ? std::sqrt(sum) : p == T(1) ? sum : std::pow(sum, T(1) / p);
}

template <typename T>
void lpPool(const T* in, T* out, const PoolWindow& w, T p) {
    const int64_t planes = w.batch * w.channels, inSize = w.inSize(), outSize = w.outSize();
#pragma omp parallel for schedule(static)
    for (int64_t plane = 0; plane < planes; ++plane) {
        const T* src = in + plane * inSize;
        T* dst = out + plane * outSize;
        for (int64_t o0 = 0; o0 < w.out[0]; ++o0) {
            const auto [f0, l0] = poolTaps(w, 0, o0, 0, w.in[0]);
            for (int64_t o1 = 0; o1 < w.out[1]; ++o1) {
                const auto [f1, l1] = poolTaps(w, 1, o1, 0, w.in[1]);
                for (int64_t o2 = 0; o2 < w.out[2]; ++o2) {
                    const auto [f2, l2] = poolTaps(w, 2, o2, 0, w.in[2]);
                    const int64_t s0 = o0 * w.stride[0] - w.padBegin[0], s1 = o1 * w.stride[1] - w.padBegin[1],
                                  s2 = o2 * w.stride[2] - w.padBegin[2];
                    T sum{};
                    for (int64_t k0 = f0; k0 < l0; ++k0)
                        for (int64_t k1 = f1; k1 < l1; ++k1) {
                            const T* row =
                                src + ((s0 + k0 * w.dilation[0]) * w.in[1] + s1 + k1 * w.dilation[1]) * w.in[2] + s2;
                            for (int64_t k2 = f2; k2 < l2; ++k2) sum += powerOf(row[k2 * w.dilation[2]], p);
                        }
                    dst[(o0 * w.out[1] + o1) * w.out[2] + o2] = rootOf(sum, p);
                }
            }
        }
    }
}

template <typename T>
void globalLpPool(const T* in, T* out, int64_t planes, int64_t size, T p) {
#pragma omp parallel for schedule(static)
    for (int64_t plane = 0; plane < planes; ++plane) {
        T sum{};
        for (int64_t i = 0; i < size; ++i) sum += powerOf(in[plane * size + i], p);
        out[plane] = rootOf(sum, p);
    }
}

}  // namespace

Status LpPoolKernel::init(const KernelInit& info) {
    mGlobal = info.node.opType == "GlobalLpPool";
    const onnx::AttributeProto* p = info.node.attribute("p");
    if (p) mP = p->type() == onnx::AttributeProto::FLOAT ? p->f() : static_cast<float>(p->i());
    if (!(mP > 0.0f)) return info.fail("p must be positive");
    if (!mGlobal) {
        QL_ASSIGN_OR_RETURN(mAttrs, parsePoolAttributes(info));
    }
    return Status::ok();
}

Status LpPoolKernel::compute(KernelContext& ctx) {
    if (!ctx.hasInput(0)) return ctx.fail("needs an input");
    const DataType dtype = ctx.input(0).dtype();
    const Tensor x = promoteHalf(ctx.input(0));
    if (x.rank() < 3) return ctx.fail("the input must be N x C x spatial..., not " + shapeString(x.shape()));
    PoolWindow w;
    Shape shape(x.rank(), 1);
    shape[0] = x.dim(0), shape[1] = x.dim(1);
    if (!mGlobal) {
        QL_ASSIGN_OR_RETURN(w, poolWindow(ctx, mAttrs, x.shape()));
        shape = w.outputShape;
    }
    Tensor y(x.dtype(), shape);
    const int64_t planes = x.dim(0) * x.dim(1), size = planes ? x.elementCount() / planes : 0;
    const bool ok = visitFloating(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        if (mGlobal)
            globalLpPool(x.data<T>(), y.data<T>(), planes, size, static_cast<T>(mP));
        else
            lpPool(x.data<T>(), y.data<T>(), w, static_cast<T>(mP));
    });
    if (!ok) return unsupportedType(ctx, dtype);
    setOutputAs(ctx, 0, std::move(y), dtype);
    return Status::ok();
}

}  // namespace ql
