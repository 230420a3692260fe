#include "core/exec/kernels/max_pool.h"

#include <algorithm>
#include <limits>

#include "core/common/target_clones.h"
#include "core/exec/kernels/type_dispatch.h"
#include "core/exec/layout.h"

namespace ql {

namespace {

// The flat index of spatial position (i0, i1, i2) within one plane, as the Indices output spells it.
struct IndexOrder {
    int64_t m0, m1, m2;
    static IndexOrder of(const PoolWindow& w, bool columnMajor) {
        if (!columnMajor) return {w.in[1] * w.in[2], w.in[2], 1};
        // Column-major over the real spatial axes; leading size-1 axes contribute nothing.
        return {1, w.in[0], w.in[0] * w.in[1]};
    }
};

// kIndices: also track where the maximum is (only when the Indices output is wanted: it costs time).
template <bool kIndices, typename T>
void maxPool(const T* in, T* out, int64_t* indices, const PoolWindow& w, IndexOrder order) {
    using A = typename ArithmeticOf<T>::type;
    const int64_t planes = w.batch * w.channels, inSize = w.inSize(), outSize = w.outSize();
#pragma omp parallel for schedule(static)
    for (int64_t p = 0; p < planes; ++p) {
        const T* src = in + p * inSize;
        for (int64_t o0 = 0; o0 < w.out[0]; ++o0) {
            const auto [f0, l0] = poolTaps(w, 0, o0, 0, w.in[0]);
            for (int64_t o1 = 0; o1 < w.out[1]; ++o1) {
                const auto [f1, l1] = poolTaps(w, 1, o1, 0, w.in[1]);
                for (int64_t o2 = 0; o2 < w.out[2]; ++o2) {
                    const auto [f2, l2] = poolTaps(w, 2, o2, 0, w.in[2]);
                    const int64_t s0 = o0 * w.stride[0] - w.padBegin[0], s1 = o1 * w.stride[1] - w.padBegin[1],
                                  s2 = o2 * w.stride[2] - w.padBegin[2];
                    A best = std::numeric_limits<A>::lowest();
                    int64_t at = 0;
                    bool found = false;
                    for (int64_t k0 = f0; k0 < l0; ++k0) {
                        const int64_t i0 = s0 + k0 * w.dilation[0];
                        for (int64_t k1 = f1; k1 < l1; ++k1) {
                            const int64_t i1 = s1 + k1 * w.dilation[1];
                            const T* row = src + (i0 * w.in[1] + i1) * w.in[2] + s2;
                            for (int64_t k2 = f2; k2 < l2; ++k2) {
                                const A v = toArithmetic(row[k2 * w.dilation[2]]);
                                if constexpr (kIndices) {
                                    if (v > best || !found) {
                                        best = v;
                                        found = true;
                                        at = i0 * order.m0 + i1 * order.m1 + (s2 + k2 * w.dilation[2]) * order.m2;
                                    }
                                } else {
                                    best = std::max(best, v);
                                }
                            }
                        }
                    }
                    const int64_t o = p * outSize + (o0 * w.out[1] + o1) * w.out[2] + o2;
                    out[o] = fromArithmetic<T>(best);
                    if constexpr (kIndices) indices[o] = p * inSize + at;
                }
            }
        }
    }
}

// Output row o1 of a plane in a layout (poolRowsInLayout): per output pixel, the std::max over its taps in
// maxPool's order. Cloned per vector width (baseline build); one call per row keeps the dispatch out of the
// inner loops.
QL_TARGET_CLONES("avx512f", "avx2", "default")
void maxPoolRow(const float* src, float* dst, const PoolWindow& w, int64_t o1, int64_t h, int64_t width, int64_t len) {
    const auto [f1, l1] = poolTaps(w, 1, o1, 0, h);
    for (int64_t o2 = 0; o2 < w.out[2]; ++o2, dst += len) {
        const auto [f2, l2] = poolTaps(w, 2, o2, 0, width);
        float* __restrict best = dst;  // the input never overlaps the output
        for (int64_t i = 0; i < len; ++i) best[i] = std::numeric_limits<float>::lowest();
        for (int64_t k1 = f1; k1 < l1; ++k1) {
            const int64_t i1 = o1 * w.stride[1] - w.padBegin[1] + k1 * w.dilation[1];
            for (int64_t k2 = f2; k2 < l2; ++k2) {
                const float* __restrict row =
                    src + (i1 * width + o2 * w.stride[2] - w.padBegin[2] + k2 * w.dilation[2]) * len;
                for (int64_t i = 0; i < len; ++i) best[i] = std::max(best[i], row[i]);
            }
        }
    }
}

}  // namespace

Status MaxPoolKernel::init(const KernelInit& info) {
    QL_ASSIGN_OR_RETURN(mAttrs, parsePoolAttributes(info));
    mColumnMajor = info.node.intAttribute("storage_order", 0) != 0;
    mWantIndices = info.node.outputs.size() > 1 && info.node.outputs[1] != kNoId;
    return Status::ok();
}

Status MaxPoolKernel::compute(KernelContext& ctx) {
    if (!hasLayoutInput(ctx)) return computePlain(ctx);
    if (ctx.outputCount() == 1) {
        QL_ASSIGN_OR_RETURN(PoolWindow w, poolWindow(ctx, mAttrs, ctx.input(0).shape()));
        const Tensor& x = ctx.input(0);
        if (const int64_t block = onednn::channelBlock(x); block > 0) {
            // Bit for bit maxPool's result: the same taps in the same order.
            Tensor y = poolRowsInLayout(x, block, w, [&](const float* src, float* dst, int64_t o1, int64_t len) {
                maxPoolRow(src, dst, w, o1, x.dim(2), x.dim(3), len);
            });
            ctx.setOutput(0, mKeepLayout ? std::move(y) : onednn::toPlain(y));
            return Status::ok();
        }
        QL_ASSIGN_OR_RETURN(bool done, poolLayoutInput(ctx, dnnl::algorithm::pooling_max, w, mKeepLayout, mPoolCache));
        if (done) return Status::ok();
    }
    return computeOnPlain(ctx, [this](KernelContext& plain) { return computePlain(plain); });
}

Status MaxPoolKernel::computePlain(KernelContext& ctx) const {
    const Tensor& in = ctx.input(0);
    QL_ASSIGN_OR_RETURN(PoolWindow w, poolWindow(ctx, mAttrs, in.shape()));
    Tensor& out = ctx.allocateOutput(0, in.dtype(), w.outputShape);
    Tensor indices;
    const bool wantIndices = ctx.outputCount() > 1;
    if (wantIndices) indices = Tensor(DataType::Int64, w.outputShape);
    const IndexOrder order = IndexOrder::of(w, mColumnMajor);
    const bool known = visitNumeric(in.dtype(), [&]<typename T>(T) {
        if (wantIndices)
            maxPool<true>(in.data<T>(), out.data<T>(), indices.data<int64_t>(), w, order);
        else
            maxPool<false>(in.data<T>(), out.data<T>(), nullptr, w, order);
    });
    if (!known) return ctx.fail(std::string("dtype ") + dataTypeName(in.dtype()) + " is not supported");
    if (wantIndices) ctx.setOutput(1, std::move(indices));
    return Status::ok();
}

}  // namespace ql
