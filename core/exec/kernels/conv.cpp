#include "core/exec/kernels/conv.h"

#include <algorithm>

#include "core/common/target_clones.h"
#include "core/exec/kernels/elementwise_util.h"  // broadcastBinary
#include "core/exec/kernels/fast_swish.h"
#include "core/exec/layout.h"
#include "core/exec/onednn_util.h"

namespace ql {

using namespace onednn;

namespace {

// oneDNN counts dilation from 0 (no gap), ONNX from 1.
Shape oneDnnDilation(const Shape& onnx) {
    Shape d = onnx;
    for (int64_t& v : d) v -= 1;
    return d;
}

// W [M, C/g, k...] as oneDNN's grouped [g, M/g, C/g, k...] (same memory).
Shape groupedWeights(const Shape& w, int64_t group) {
    Shape g = {group, w[0] / group};
    g.insert(g.end(), w.begin() + 1, w.end());
    return g;
}

// oneDNN's Winograd F(2x2, 3x3) (AVX-512) is ~1.6x faster than its direct convolution on the 3x3 stride-1
// layers of ResNet-style nets at 56x56..14x14, but its weights live in a transformed layout that costs a
// reorder as large as the convolution itself, so it only pays when the weights are constant and kept.
// Smaller maps or channel counts leave too little work per tile; there the direct kernel wins.
bool winogradPays(const ConvAttributes& attrs, const ConvGeometry& g, const Shape& x, const Shape& w) {
    if (attrs.group != 1 || x.size() != 4 || w.size() != 4 || w[2] != 3 || w[3] != 3) return false;
    const bool unitStride = g.stride == Shape{1, 1} && g.dilation == Shape{1, 1};
    return unitStride && x[1] >= 64 && w[0] >= 64 && x[2] >= 14 && x[3] >= 14;
}

// A channel-blocked layout (e.g. nChw16c, what Winograd reads and writes). A convolution reading a tensor in
// one is planned to read it as is: left free, oneDNN picks channels-last and every layer next to a Winograd
// one would pay two reorders.
bool isChannelBlocked(const Tensor& x) {
    if (!x.layout()) return false;
    const dnnl_memory_desc_t& d = x.layout()->desc.data;
    return d.format_kind == dnnl_blocked && d.format_desc.blocking.inner_nblks > 0;
}

// Folding a squeeze-excite gate into the weights costs a pass over the reordered weights each run, against the
// Mul's read and write of the whole activation: it pays when W is at most as large as X (EfficientNet-B0's
// blocks down to 14x14, not its 7x7 ones).
bool gateFoldPays(const Tensor& x, const Tensor& w, const Tensor& gate) {
    return x.rank() == 4 && w.rank() >= 2 && w.dim(1) == x.dim(1) && gate.shape() == Shape{1, x.dim(1), 1, 1} &&
           w.elementCount() <= x.elementCount();
}

// A 1x1 convolution of a 1x1 map, as squeeze-excite's two layers are: a matrix-vector product. oneDNN's
// primitive takes 5-10 us per call there, several times the arithmetic (EfficientNet-B0 has 32 such layers).
bool isMatrixVector(const ConvAttributes& attrs, const ConvGeometry& g, const Shape& x, const Shape& w) {
    if (attrs.group != 1 || x.size() < 3 || w.size() != x.size()) return false;
    for (size_t d = 2; d < x.size(); ++d)
        if (x[d] != 1 || w[d] != 1) return false;
    const auto zero = [](const Shape& pads) {
        return std::all_of(pads.begin(), pads.end(), [](int64_t v) { return v == 0; });
    };
    return zero(g.padBegin) && zero(g.padEnd);
}

// y[r] = bias[r] + w[r, :] . x for rows [0, rows) of w (`len` floats each); bias may be null. Cloned per vector
// width (baseline build): the rows stream from memory, and wide loads keep more of them in flight.
QL_TARGET_CLONES("avx512f", "avx2", "default")
void dotRows(const float* w, const float* x, const float* bias, float* y, int64_t rows, int64_t len) {
    for (int64_t r = 0; r < rows; ++r, w += len) {
        float acc = 0.0f;
#pragma omp simd reduction(+ : acc)
        for (int64_t i = 0; i < len; ++i) acc += w[i] * x[i];
        y[r] = acc + (bias ? bias[r] : 0.0f);
    }
}

// y[n, m] = bias[m] + sum over c of w[m, c] * x[n, c], for float x [N, C, 1...] and w [M, C, 1...].
Tensor matrixVector(const Tensor& x, const Tensor& w, const float* bias, const Shape& outputShape) {
    Tensor y(DataType::Float, outputShape);
    const int64_t m = w.dim(0), c = w.dim(1);
    const float* xv = x.data<float>();
    const float* wv = w.data<float>();
    float* yv = y.data<float>();
    for (int64_t image = 0; image < x.dim(0); ++image)
        parallelFor(m, std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(1, c)), [&](int64_t b, int64_t e) {
            dotRows(wv + b * c, xv + image * c, bias ? bias + b : nullptr, yv + image * m + b, e - b, c);
        });
    return y;
}

}  // namespace

Status ConvKernel::init(const KernelInit& info) {
    QL_ASSIGN_OR_RETURN(mAttrs, parseConvAttributes(info, false));
    mConstantWeights = constantInputData(info, 1);
    return Status::ok();
}

Result<WeightedPrimitive*> ConvKernel::plan(const KernelContext& ctx, const Shape& x, const Shape& w, bool hasBias,
                                            bool weightsKept, const dnnl::memory::desc* srcLayout) {
    Shape key = x;
    key.insert(key.end(), w.begin(), w.end());
    key.push_back(hasBias);
    key.push_back(weightsKept);
    key.push_back(srcLayout != nullptr);
    if (auto it = mPlans.find(key); it != mPlans.end()) return &it->second;
    QL_ASSIGN_OR_RETURN(ConvGeometry g, convGeometry(ctx, mAttrs, x, w));
    WeightedPrimitive p;
    const Shape wShape = mAttrs.group > 1 ? groupedWeights(w, mAttrs.group) : w;
    p.userWeights = plainDesc(wShape);
    p.hasBias = hasBias;
    p.outputShape = g.outputShape;
    const auto biasDesc = hasBias ? plainDesc({w[0]}) : dnnl::memory::desc();
    const auto primitiveDesc = [&](dnnl::algorithm algorithm, const dnnl::memory::desc& src) {
        dnnl::convolution_forward::desc desc(dnnl::prop_kind::forward_inference, algorithm, src, anyDesc(wShape),
                                             biasDesc, anyDesc(g.outputShape), toDims(g.stride),
                                             toDims(oneDnnDilation(g.dilation)), toDims(g.padBegin), toDims(g.padEnd));
        return dnnl::convolution_forward::primitive_desc(desc, postOpAttr(mFusion.postOps), engine());
    };
    dnnl::convolution_forward::primitive_desc pd;
    if (weightsKept && winogradPays(mAttrs, g, x, w)) {
        try {
            pd = primitiveDesc(dnnl::algorithm::convolution_winograd, anyDesc(x));
        } catch (const dnnl::error&) {
            // No Winograd implementation for this CPU or these post-ops: the direct one below.
        }
    }
    if (!pd && srcLayout) {
        try {
            pd = primitiveDesc(dnnl::algorithm::convolution_direct, *srcLayout);
        } catch (const dnnl::error&) {
            // No implementation reads this layout: the one oneDNN prefers, after a reorder.
        }
    }
    if (!pd) pd = primitiveDesc(dnnl::algorithm::convolution_direct, anyDesc(x));
    p.primitive = dnnl::convolution_forward(pd);
    finishPlan(p, pd, x);
    return &mPlans.emplace(std::move(key), std::move(p)).first->second;
}

void ConvKernel::setFusion(ConvFusion fusion) {
    mFusion = std::move(fusion);
    // Faster than oneDNN 2.6's post-op (fast_swish.h has the figures), and rounded as the Sigmoid and Mul
    // kernels round, which the INT8 simulation (node by node) relies on.
    if (mFusion.postOps.empty() || !fastSwishAvailable()) return;
    const PostOp& last = mFusion.postOps.back();
    const bool swish = last.algorithm == dnnl::algorithm::eltwise_swish && last.alpha == 1.0f;
    if (swish || last.algorithm == dnnl::algorithm::eltwise_logistic) {
        mActivationAfter = last.algorithm;
        mFusion.postOps.pop_back();
    }
}

void ConvKernel::applyActivationAfter(Tensor& y) const {
    if (mActivationAfter == dnnl::algorithm::undef) return;
    // Sigmoid(0) is 0.5: the zero padding of a channel-blocked layout (20 channels in nChw16c) would not stay
    // zero, which oneDNN's primitives rely on, so such an output is made plain first. Swish keeps zeros zero.
    const bool padded = y.byteSize() != static_cast<size_t>(y.elementCount()) * sizeof(float);
    if (padded && mActivationAfter == dnnl::algorithm::eltwise_logistic) y = onednn::toPlain(y);
    // Every stored float, a layout's padding included.
    auto* data = static_cast<float*>(y.rawData());
    const auto count = static_cast<int64_t>(y.byteSize() / sizeof(float));
    if (mActivationAfter == dnnl::algorithm::eltwise_swish) swishInPlace(data, count);
    if (mActivationAfter == dnnl::algorithm::eltwise_logistic) sigmoidFloats(data, data, count);
}

bool ConvKernel::hasSum() const {
    return std::any_of(mFusion.postOps.begin(), mFusion.postOps.end(), [](const PostOp& op) { return op.sum; });
}

Result<Tensor> ConvKernel::gated(const KernelContext& ctx, const Tensor& x, const Tensor& gate) {
    if (auto y = binaryInLayout(dnnl::algorithm::binary_mul, asFloat(x), asFloat(gate), true, mGateCache))
        return std::move(*y);
    const Tensor a = onednn::toPlain(asFloat(x)), g = onednn::toPlain(asFloat(gate));
    const auto shape = broadcastShapes(a.shape(), g.shape());
    if (!shape)
        return ctx.fail("the squeeze-excite gate " + shapeString(g.shape()) + " does not broadcast to the input " +
                        shapeString(a.shape()));
    Tensor y(DataType::Float, *shape);
    broadcastBinary(a.data<float>(), a.shape(), g.data<float>(), g.shape(), y.data<float>(), *shape,
                    [](float u, float v) { return u * v; });
    return y;
}

Status ConvKernel::compute(KernelContext& ctx) {
    const Tensor& w = ctx.input(1);
    const bool hasBias = ctx.hasInput(2);
    QL_RETURN_IF_ERROR(checkConvInputTypes(ctx));
    if (hasBias && (ctx.input(2).rank() != 1 || w.rank() < 1 || ctx.input(2).dim(0) != w.dim(0)))
        return ctx.fail("bias " + shapeString(ctx.input(2).shape()) + " must be 1-D with one value per output channel");
    const bool gate = mFusion.gatedInput;
    if (gate && !ctx.hasInput(kConvGateInput)) return ctx.fail("the fused squeeze-excite gate is missing");
    try {
        // A gate is folded into the weights where that is cheaper, or X is multiplied by it first.
        const bool foldGate = gate && gateFoldPays(ctx.input(0), w, ctx.input(kConvGateInput));
        Tensor gatedX;
        if (gate && !foldGate) {
            QL_ASSIGN_OR_RETURN(gatedX, gated(ctx, ctx.input(0), ctx.input(kConvGateInput)));
        }
        const Tensor& x = gatedX.empty() ? ctx.input(0) : gatedX;
        if (x.elementCount() == 0 || w.elementCount() == 0) {
            QL_ASSIGN_OR_RETURN(ConvGeometry g, convGeometry(ctx, mAttrs, x.shape(), w.shape()));
            ctx.setOutput(0, Tensor::zeros(x.dtype(), g.outputShape));
            return Status::ok();
        }
        const Tensor bias = hasBias ? asFloat(ctx.input(2)) : Tensor();
        if (mFusion.postOps.empty() && x.rank() >= 3 && x.elementCount() == x.dim(0) * x.dim(1)) {
            QL_ASSIGN_OR_RETURN(ConvGeometry g, convGeometry(ctx, mAttrs, x.shape(), w.shape()));
            if (isMatrixVector(mAttrs, g, x.shape(), w.shape())) {
                Tensor y = matrixVector(onednn::toPlain(asFloat(x)), asFloat(w), hasBias ? bias.data<float>() : nullptr,
                                        g.outputShape);
                applyActivationAfter(y);
                ctx.setOutput(0, fromFloat(y, x.dtype()));
                return Status::ok();
            }
        }
        const bool weightsKept = cachable(mConstantWeights, w);
        const dnnl::memory::desc* srcLayout = isChannelBlocked(x) ? &x.layout()->desc : nullptr;
        QL_ASSIGN_OR_RETURN(WeightedPrimitive * p, plan(ctx, x.shape(), w.shape(), hasBias, weightsKept, srcLayout));
        WeightedRun run{nullptr, mKeepLayout && x.dtype() == DataType::Float};
        if (hasSum()) {
            if (!ctx.hasInput(kConvSumInput) || ctx.input(kConvSumInput).shape() != p->outputShape ||
                ctx.input(kConvSumInput).dtype() != DataType::Float)
                return ctx.fail("the fused Add operand does not match the convolution output " +
                                shapeString(p->outputShape));
            run.sum = &ctx.input(kConvSumInput);
        }
        const Tensor gateValues = foldGate ? onednn::toPlain(asFloat(ctx.input(kConvGateInput))) : Tensor();
        if (foldGate) run.inputChannelScale = gateValues.data<float>();
        QL_ASSIGN_OR_RETURN(Tensor y, runWeighted(*p, asFloat(x), asFloat(w), &bias, weightsKept, run));
        applyActivationAfter(y);
        ctx.setOutput(0, fromFloat(y, x.dtype()));
    } catch (const dnnl::error& e) {
        return ctx.fail(std::string("oneDNN could not run this convolution: ") + e.what());
    }
    return Status::ok();
}

}  // namespace ql
