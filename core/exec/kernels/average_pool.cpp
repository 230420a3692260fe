#include "core/exec/kernels/average_pool.h"

#include "core/common/target_clones.h"
#include "core/exec/kernels/type_dispatch.h"

namespace ql {

namespace {

template <typename T>
void averagePool(const T* in, T* out, const PoolWindow& w, bool includePad) {
    using A = typename ArithmeticOf<T>::type;
    const int64_t planes = w.batch * w.channels, inSize = w.inSize(), outSize = w.outSize();
#pragma omp parallel for schedule(static)
    for (int64_t p = 0; p < planes; ++p) {
        const T* src = in + p * inSize;
        T* dst = out + p * outSize;
        for (int64_t o0 = 0; o0 < w.out[0]; ++o0) {
            const auto [f0, l0] = poolTaps(w, 0, o0, 0, w.in[0]);
            const auto [pf0, pl0] = poolTaps(w, 0, o0, -w.padBegin[0], w.in[0] + w.padEnd[0]);
            for (int64_t o1 = 0; o1 < w.out[1]; ++o1) {
                const auto [f1, l1] = poolTaps(w, 1, o1, 0, w.in[1]);
                const auto [pf1, pl1] = poolTaps(w, 1, o1, -w.padBegin[1], w.in[1] + w.padEnd[1]);
                for (int64_t o2 = 0; o2 < w.out[2]; ++o2) {
                    const auto [f2, l2] = poolTaps(w, 2, o2, 0, w.in[2]);
                    const int64_t s0 = o0 * w.stride[0] - w.padBegin[0], s1 = o1 * w.stride[1] - w.padBegin[1],
                                  s2 = o2 * w.stride[2] - w.padBegin[2];
                    A sum{};
                    for (int64_t k0 = f0; k0 < l0; ++k0)
                        for (int64_t k1 = f1; k1 < l1; ++k1) {
                            const T* row =
                                src + ((s0 + k0 * w.dilation[0]) * w.in[1] + s1 + k1 * w.dilation[1]) * w.in[2] + s2;
                            for (int64_t k2 = f2; k2 < l2; ++k2) sum += toArithmetic(row[k2 * w.dilation[2]]);
                        }
                    int64_t count = (l0 - f0) * (l1 - f1) * (l2 - f2);
                    if (includePad) {
                        const auto [pf2, pl2] = poolTaps(w, 2, o2, -w.padBegin[2], w.in[2] + w.padEnd[2]);
                        count = (pl0 - pf0) * (pl1 - pf1) * (pl2 - pf2);
                    }
                    dst[(o0 * w.out[1] + o1) * w.out[2] + o2] =
                        fromArithmetic<T>(count > 0 ? static_cast<A>(sum / static_cast<A>(count)) : A{});
                }
            }
        }
    }
}

// Output row o1 of a 2-D plane in a layout (poolRowsInLayout): per output pixel, averagePool's sum over the taps
// in its order and its division by the same count. Cloned per vector width (baseline build).
QL_TARGET_CLONES("avx512f", "avx2", "default")
void averagePoolRow(const float* src, float* dst, const PoolWindow& w, int64_t o1, int64_t h, int64_t width,
                    int64_t len, bool includePad) {
    const auto [f1, l1] = poolTaps(w, 1, o1, 0, h);
    const auto [pf1, pl1] = poolTaps(w, 1, o1, -w.padBegin[1], h + w.padEnd[1]);
    for (int64_t o2 = 0; o2 < w.out[2]; ++o2, dst += len) {
        const auto [f2, l2] = poolTaps(w, 2, o2, 0, width);
        float* __restrict sum = dst;  // the input never overlaps the output
        for (int64_t i = 0; i < len; ++i) sum[i] = 0.0f;
        for (int64_t k1 = f1; k1 < l1; ++k1) {
            const int64_t i1 = o1 * w.stride[1] - w.padBegin[1] + k1 * w.dilation[1];
            for (int64_t k2 = f2; k2 < l2; ++k2) {
                const float* __restrict row =
                    src + (i1 * width + o2 * w.stride[2] - w.padBegin[2] + k2 * w.dilation[2]) * len;
                for (int64_t i = 0; i < len; ++i) sum[i] += row[i];
            }
        }
        int64_t count = (l1 - f1) * (l2 - f2);
        if (includePad) {
            const auto [pf2, pl2] = poolTaps(w, 2, o2, -w.padBegin[2], width + w.padEnd[2]);
            count = (pl1 - pf1) * (pl2 - pf2);
        }
        const float divisor = static_cast<float>(count);
        for (int64_t i = 0; i < len; ++i) sum[i] = count > 0 ? sum[i] / divisor : 0.0f;
    }
}

}  // namespace

Status AveragePoolKernel::init(const KernelInit& info) {
    QL_ASSIGN_OR_RETURN(mAttrs, parsePoolAttributes(info));
    mCountIncludePad = info.node.intAttribute("count_include_pad", 0) != 0;
    return Status::ok();
}

Status AveragePoolKernel::compute(KernelContext& ctx) {
    if (!hasLayoutInput(ctx)) return computePlain(ctx);
    const Tensor& x = ctx.input(0);
    if (const int64_t block = onednn::channelBlock(x); block > 0) {
        QL_ASSIGN_OR_RETURN(PoolWindow w, poolWindow(ctx, mAttrs, x.shape()));
        // Bit for bit averagePool's result: the same sums in the same order, divided by the same counts.
        Tensor y = poolRowsInLayout(x, block, w, [&](const float* src, float* dst, int64_t o1, int64_t len) {
            averagePoolRow(src, dst, w, o1, x.dim(2), x.dim(3), len, mCountIncludePad);
        });
        ctx.setOutput(0, mKeepLayout ? std::move(y) : onednn::toPlain(y));
        return Status::ok();
    }
    if (!mAttrs.ceilMode) {
        QL_ASSIGN_OR_RETURN(PoolWindow w, poolWindow(ctx, mAttrs, ctx.input(0).shape()));
        const auto op = mCountIncludePad ? dnnl::algorithm::pooling_avg_include_padding
                                         : dnnl::algorithm::pooling_avg_exclude_padding;
        QL_ASSIGN_OR_RETURN(bool done, poolLayoutInput(ctx, op, w, mKeepLayout, mPoolCache));
        if (done) return Status::ok();
    }
    return computeOnPlain(ctx, [this](KernelContext& plain) { return computePlain(plain); });
}

Status AveragePoolKernel::computePlain(KernelContext& ctx) const {
    const Tensor& in = ctx.input(0);
    QL_ASSIGN_OR_RETURN(PoolWindow w, poolWindow(ctx, mAttrs, in.shape()));
    Tensor& out = ctx.allocateOutput(0, in.dtype(), w.outputShape);
    bool floating = false;
    visitNumeric(in.dtype(), [&]<typename T>(T) {
        if constexpr (std::is_floating_point_v<typename ArithmeticOf<T>::type>) {
            averagePool(in.data<T>(), out.data<T>(), w, mCountIncludePad);
            floating = true;
        }
    });
    if (!floating)
        return ctx.fail(std::string("dtype ") + dataTypeName(in.dtype()) + " is not supported (float types only)");
    return Status::ok();
}

}  // namespace ql
