#include "core/exec/kernels/onednn_layer.h"

#include <cstring>
#include <vector>

#include "core/common/half.h"
#include "core/exec/kernels/elementwise_util.h"
#include "core/exec/layout.h"
#include "core/exec/onednn_util.h"

namespace ql {

using namespace onednn;

namespace {

// Constant weights in the primitive's layout, made once into memory of their own (the tensor handed to the
// kernel may be a temporary float conversion).
const dnnl::memory& cachedCopy(dnnl::memory& cache, const Tensor& w, const dnnl::memory::desc& user,
                               const dnnl::memory::desc& want) {
    if (!cache) {
        cache = dnnl::memory(want, engine());
        reorder(wrap(w, user), cache);
    }
    return cache;
}

// `from` (any layout) into `to`: a plain copy when the layouts agree (oneDNN's same-layout reorder is slower).
void copyInto(const Tensor& from, const dnnl::memory& to) {
    if (descOf(from) == to.get_desc())
        std::memcpy(to.get_data_handle(), from.rawData(), from.byteSize());
    else
        reorder(memoryOf(from), to);
}

// `weights` with input channel i scaled by scale[i], in memory of their own; a null memory when the layout
// does not group the input channels (inputChannelRuns).
dnnl::memory scaledByInputChannel(const dnnl::memory& weights, const float* scale, int64_t channels) {
    const auto desc = weights.get_desc();
    const std::pair<int64_t, int64_t> channelRuns = inputChannelRuns(desc);
    // Plain variables, not a structured binding: clang 14 (the fuzzing and sanitizer compiler) cannot capture one.
    const int64_t run = channelRuns.first, count = channelRuns.second;
    if (run == 0) return {};
    dnnl::memory scaled(desc, engine());
    const auto* in = static_cast<const float*>(weights.get_data_handle());
    auto* out = static_cast<float*>(scaled.get_data_handle());
    const auto runs = static_cast<int64_t>(desc.get_size() / sizeof(float)) / run;
    parallelFor(runs, std::max<int64_t>(1, kElementwiseGrain / run), [&](int64_t begin, int64_t end) {
        for (int64_t r = begin; r < end; ++r) {
            const int64_t channel = r % count;
            const float factor = channel < channels ? scale[channel] : 0.0f;  // padding stays 0
            for (int64_t i = r * run; i < (r + 1) * run; ++i) out[i] = in[i] * factor;
        }
    });
    return scaled;
}

}  // namespace

std::pair<int64_t, int64_t> inputChannelRuns(const dnnl::memory::desc& desc) {
    const dnnl_memory_desc_t& d = desc.data;
    if (d.format_kind != dnnl_blocked || d.ndims < 2 || d.data_type != dnnl_f32 || d.offset0 != 0) return {0, 0};
    const dnnl_blocking_desc_t& b = d.format_desc.blocking;
    int64_t inner = 1;
    std::vector<int64_t> outer(d.padded_dims, d.padded_dims + d.ndims);
    for (int k = 0; k < b.inner_nblks; ++k) {
        if (b.inner_idxs[k] == 1) return {0, 0};
        inner *= b.inner_blks[k];
        outer[static_cast<size_t>(b.inner_idxs[k])] /= b.inner_blks[k];
    }
    const int64_t run = b.strides[1], count = d.padded_dims[1];
    int64_t lastInside = inner - 1;  // the largest offset inside one run
    for (int dim = 0; dim < d.ndims; ++dim) {
        if (dim == 1 || outer[static_cast<size_t>(dim)] == 1) continue;
        if (b.strides[dim] % (run * count) == 0) continue;  // outside: a multiple of all runs
        lastInside += (outer[static_cast<size_t>(dim)] - 1) * b.strides[dim];
    }
    if (lastInside >= run) return {0, 0};
    return {run, count};
}

void finishPlan(WeightedPrimitive& p, const dnnl::primitive_desc& pd, const Shape& x) {
    p.src = pd.src_desc();
    p.weights = pd.weights_desc();
    p.dst = pd.dst_desc();
    const auto plainSrc = plainDesc(x), plainDst = plainDesc(p.outputShape);
    if (p.src != plainSrc) p.toSrc = dnnl::reorder(dnnl::reorder::primitive_desc(engine(), plainSrc, engine(), p.src));
    if (p.dst != plainDst)
        p.fromDst = dnnl::reorder(dnnl::reorder::primitive_desc(engine(), p.dst, engine(), plainDst));
    p.srcMemory = dnnl::memory(p.src, engine(), DNNL_MEMORY_NONE);
    p.dstMemory = dnnl::memory(p.dst, engine(), DNNL_MEMORY_NONE);
    p.plainSrcMemory = dnnl::memory(plainSrc, engine(), DNNL_MEMORY_NONE);
    p.plainDstMemory = dnnl::memory(plainDst, engine(), DNNL_MEMORY_NONE);
    if (p.src != plainSrc) p.srcLayout = std::make_shared<const TensorLayout>(TensorLayout{p.src});
    if (p.dst != plainDst) p.dstLayout = std::make_shared<const TensorLayout>(TensorLayout{p.dst});
}

namespace {

// A float tensor of `shape` in `layout` (plain when null), without re-deriving the layout per call.
Tensor allocateWith(const std::shared_ptr<const TensorLayout>& layout, const Shape& shape) {
    return layout ? Tensor::inLayout(DataType::Float, shape, layout, layout->desc.get_size())
                  : Tensor(DataType::Float, shape);
}

bool hasLayout(const Tensor& t, const std::shared_ptr<const TensorLayout>& layout, const dnnl::memory::desc& desc) {
    if (!t.layout() || !layout) return !t.layout() && !layout;
    return t.layout() == layout || t.layout()->desc == desc;
}

// Points `memory` at `data` (oneDNN only reads inputs, so const is cast away here).
dnnl::memory& at(dnnl::memory& memory, const void* data) {
    memory.set_data_handle(const_cast<void*>(data));
    return memory;
}

}  // namespace

Result<Tensor> runWeighted(WeightedPrimitive& p, const Tensor& x, const Tensor& w, const Tensor* bias,
                           bool constantWeights, const WeightedRun& run) {
    Tensor srcCopy;  // x in the primitive's layout when it comes in another one
    dnnl::memory src;
    if (hasLayout(x, p.srcLayout, p.src)) {
        src = at(p.srcMemory, x.rawData());
    } else if (x.isPlain() && p.toSrc) {
        srcCopy = allocateWith(p.srcLayout, x.shape());
        src = at(p.srcMemory, srcCopy.rawData());
        p.toSrc.execute(stream(), at(p.plainSrcMemory, x.rawData()), src);
    } else {
        srcCopy = convertTo(x, p.src);
        src = at(p.srcMemory, srcCopy.rawData());
    }
    dnnl::memory weights = constantWeights ? cachedCopy(p.cachedWeights, w, p.userWeights, p.weights)
                                           : inLayout(wrap(w, p.userWeights), p.weights);
    if (run.inputChannelScale) {
        const int64_t channels = p.userWeights.dims()[1];
        dnnl::memory scaled = scaledByInputChannel(weights, run.inputChannelScale, channels);
        // A layout that blocks the input channels: scale the plain weights, then reorder them.
        if (!scaled)
            scaled = inLayout(scaledByInputChannel(wrap(w, p.userWeights), run.inputChannelScale, channels), p.weights);
        weights = scaled;
    }
    Tensor y = run.keepLayout ? allocateWith(p.dstLayout, p.outputShape) : Tensor(DataType::Float, p.outputShape);
    const bool reorderDst = y.isPlain() && p.fromDst;
    const Tensor dstCopy = reorderDst ? allocateWith(p.dstLayout, p.outputShape) : Tensor();
    dnnl::memory& dst = at(p.dstMemory, reorderDst ? dstCopy.rawData() : y.rawData());
    // The sum post-op accumulates into dst, so dst starts as the other operand.
    if (run.sum) copyInto(*run.sum, dst);
    // A map of its own per call: one kept in the plan made ResNet-50's peak resident memory 24 MB larger.
    std::unordered_map<int, dnnl::memory> args{{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, weights}, {DNNL_ARG_DST, dst}};
    if (p.hasBias) {
        const int64_t n = bias->elementCount();
        if (!p.biasMemory || p.biasMemory.get_desc().dims() != dnnl::memory::dims{n})
            p.biasMemory = dnnl::memory(plainDesc({n}), engine(), DNNL_MEMORY_NONE);
        args[DNNL_ARG_BIAS] = at(p.biasMemory, bias->rawData());
    }
    p.primitive.execute(stream(), args);
    if (reorderDst) p.fromDst.execute(stream(), dst, at(p.plainDstMemory, y.rawData()));
    stream().wait();
    return y;
}

dnnl::primitive_attr postOpAttr(const std::vector<PostOp>& ops) {
    dnnl::post_ops postOps;
    for (const PostOp& op : ops) {
        if (op.sum)
            postOps.append_sum(1.0f);
        else
            postOps.append_eltwise(1.0f, op.algorithm, op.alpha, op.beta);
    }
    dnnl::primitive_attr attr;
    attr.set_post_ops(postOps);
    return attr;
}

MatMulPlan makeMatMulPlan(const dnnl::memory::desc& a, const dnnl::memory::desc& b, const Shape& dst, bool constantB,
                          float alpha, float beta) {
    MatMulPlan plan;
    plan.userB = b;
    const auto wantB = constantB ? dnnl::memory::desc(b.dims(), b.data_type(), dnnl::memory::format_tag::any) : b;
    dnnl::primitive_attr attr;
    if (alpha != 1.0f) attr.set_output_scales(0, {alpha});
    if (beta != 0.0f) {
        dnnl::post_ops ops;
        ops.append_sum(beta);
        attr.set_post_ops(ops);
    }
    dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(a, wantB, plainDesc(dst)), attr, engine());
    plan.primitive = dnnl::matmul(pd);
    plan.b = pd.weights_desc();
    plan.dst = pd.dst_desc();
    return plan;
}

void runMatMul(MatMulPlan& plan, const dnnl::memory::desc& a, const Tensor& aData, const Tensor& b, Tensor& dst,
               bool constantB) {
    const dnnl::memory weights =
        constantB ? cachedCopy(plan.cachedB, b, plan.userB, plan.b) : inLayout(wrap(b, plan.userB), plan.b);
    plan.primitive.execute(
        stream(), {{DNNL_ARG_SRC, wrap(aData, a)}, {DNNL_ARG_WEIGHTS, weights}, {DNNL_ARG_DST, wrap(dst, plan.dst)}});
    stream().wait();
}

const void* constantInputData(const KernelInit& info, size_t input) {
    if (input >= info.node.inputs.size() || info.node.inputs[input] == kNoId) return nullptr;
    const Initializer* init = info.graph.initializerOf(info.node.inputs[input]);
    return init && !init->rawBytes.empty() ? init->rawBytes.data() : nullptr;
}

bool isFloatingType(DataType dtype) {
    return dtype == DataType::Float || dtype == DataType::Float16 || dtype == DataType::BFloat16 ||
           dtype == DataType::Double;
}

Tensor asFloat(const Tensor& t) {
    if (t.dtype() == DataType::Float) return t;
    return Tensor::fromVector<float>(DataType::Float, t.shape(), t.toFloats());
}

const Tensor& asFloat(const Tensor& t, Tensor& copy) {
    if (t.dtype() == DataType::Float) return t;
    copy = asFloat(t);
    return copy;
}

Tensor fromFloat(const Tensor& t, DataType dtype) {
    if (dtype == DataType::Float) return t;
    Tensor out(dtype, t.shape());
    const float* in = t.data<float>();
    for (int64_t i = 0; i < t.elementCount(); ++i) {
        if (dtype == DataType::Double)
            out.data<double>()[i] = in[i];
        else if (dtype == DataType::Float16)
            out.data<uint16_t>()[i] = floatToHalf(in[i]);
        else
            out.data<uint16_t>()[i] = floatToBfloat16(in[i]);
    }
    return out;
}

}  // namespace ql
