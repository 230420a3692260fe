#include "core/exec/layout_ops.h"

#include "core/exec/onednn_util.h"

#include <string_view>

namespace ql {

bool hasLayoutInput(const KernelContext& ctx) {
    for (size_t i = 0; i < ctx.inputCount(); ++i)
        if (ctx.hasInput(i) && !ctx.input(i).isPlain()) return true;
    return false;
}

Status computeOnPlain(KernelContext& ctx, const std::function<Status(KernelContext&)>& plainCompute) {
    std::vector<Tensor> inputs(ctx.inputCount());
    std::vector<const Tensor*> pointers(ctx.inputCount(), nullptr);
    for (size_t i = 0; i < ctx.inputCount(); ++i) {
        if (!ctx.hasInput(i)) continue;
        inputs[i] = onednn::toPlain(ctx.input(i));
        pointers[i] = &inputs[i];
    }
    std::vector<Tensor> outputs(ctx.outputCount());
    KernelContext plain(ctx.node(), pointers, outputs, ctx.threads());
    QL_RETURN_IF_ERROR(plainCompute(plain));
    for (size_t o = 0; o < outputs.size(); ++o) ctx.setOutput(o, std::move(outputs[o]));
    return Status::ok();
}

Result<bool> poolLayoutInput(KernelContext& ctx, dnnl::algorithm op, const PoolWindow& window, bool keepLayout,
                             PoolCache& cache) {
    const Tensor& x = ctx.input(0);
    if (x.dtype() != DataType::Float || x.rank() != 4 || x.elementCount() == 0) return false;
    try {
        ctx.setOutput(0, onednn::poolInLayout(op, x, window, keepLayout, cache));
    } catch (const dnnl::error& e) {
        return ctx.fail(std::string("oneDNN could not run this pooling: ") + e.what());
    }
    return true;
}

}  // namespace ql

namespace ql::onednn {

namespace {

// Output memory: in `like`'s layout when keeping layouts, else plain.
Tensor outputLike(const dnnl::memory::desc& like, const Shape& shape, bool keepLayout) {
    return keepLayout ? allocateIn(like, shape) : Tensor(DataType::Float, shape);
}

bool broadcastsTo(const Shape& b, const Shape& a) {
    if (a.size() != b.size()) return false;
    for (size_t d = 0; d < a.size(); ++d)
        if (b[d] != a[d] && b[d] != 1) return false;
    return true;
}

// A plain `b` of lower rank than `a` seen with leading 1s (numpy broadcasting), so oneDNN can broadcast it.
Tensor withRankOf(const Tensor& b, const Tensor& a) {
    if (!b.isPlain() || b.rank() >= a.rank()) return b;
    Shape shape(a.rank() - b.rank(), 1);
    shape.insert(shape.end(), b.shape().begin(), b.shape().end());
    return b.reshaped(shape);
}

}  // namespace

std::optional<Tensor> binaryInLayout(dnnl::algorithm op, const Tensor& a, const Tensor& bGiven, bool keepLayout,
                                     BinaryCache& cache) {
    const Tensor b = withRankOf(bGiven, a);
    if (a.dtype() != DataType::Float || b.dtype() != DataType::Float || !broadcastsTo(b.shape(), a.shape()) ||
        a.elementCount() == 0)
        return std::nullopt;
    const auto aDesc = descOf(a), bDesc = descOf(b);
    Tensor y = outputLike(aDesc, a.shape(), keepLayout);
    const auto yDesc = descOf(y);
    auto& binary = cache.get({aDesc, bDesc, yDesc}, [&] {
        dnnl::binary::primitive_desc pd(dnnl::binary::desc(op, aDesc, bDesc, yDesc), engine());
        return BinaryPrimitive{dnnl::binary(pd), std::string_view(pd.impl_info_str()).starts_with("ref")};
    });
    // oneDNN's reference binary (a broadcast its JIT does not cover) is slower than our own loops on plain data.
    if (a.isPlain() && b.isPlain() && binary.reference) return std::nullopt;
    // Its JIT wants both operands in one layout: a same-shaped operand in another one (channels-last next to
    // channel-blocked) is reordered first, ~30x cheaper than the reference binary's per-element offsets.
    if (binary.reference && b.shape() == a.shape() && bDesc != aDesc)
        return binaryInLayout(op, a, convertTo(b, aDesc), keepLayout, cache);
    binary.primitive.execute(
        stream(), {{DNNL_ARG_SRC_0, memoryOf(a)}, {DNNL_ARG_SRC_1, memoryOf(b)}, {DNNL_ARG_DST, memoryOf(y)}});
    stream().wait();
    return y;
}

Tensor poolInLayout(dnnl::algorithm op, const Tensor& x, const PoolWindow& w, bool keepLayout, PoolCache& cache) {
    const auto xDesc = descOf(x);
    auto& pool = cache.get({xDesc}, [&] {
        dnnl::memory::dims strides, kernel, dilation, padL, padR;
        for (size_t a = kPoolAxes - 2; a < kPoolAxes; ++a) {
            strides.push_back(w.stride[a]);
            kernel.push_back(w.kernel[a]);
            dilation.push_back(w.dilation[a] - 1);  // oneDNN counts dilation from 0
            padL.push_back(w.padBegin[a]);
            // Whatever the output size needs past the input (ceil_mode), as oneDNN derives the size from pads.
            padR.push_back((w.out[a] - 1) * w.stride[a] + (w.kernel[a] - 1) * w.dilation[a] + 1 - w.in[a] -
                           w.padBegin[a]);
        }
        // Asking for a plain output from a blocked input would select oneDNN's slow reference pooling.
        dnnl::pooling_v2_forward::primitive_desc pd(
            dnnl::pooling_v2_forward::desc(dnnl::prop_kind::forward_inference, op, xDesc, anyDesc(w.outputShape),
                                           strides, kernel, dilation, padL, padR),
            engine());
        return PoolPrimitive{dnnl::pooling_v2_forward(pd), pd.dst_desc()};
    });
    Tensor y = allocateIn(pool.dst, w.outputShape);
    pool.primitive.execute(stream(), {{DNNL_ARG_SRC, memoryOf(x)}, {DNNL_ARG_DST, memoryOf(y)}});
    stream().wait();
    return keepLayout ? y : toPlain(y);
}

}  // namespace ql::onednn
