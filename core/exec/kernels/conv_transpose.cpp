#include "core/exec/kernels/conv_transpose.h"

#include <algorithm>

#include "core/exec/onednn_util.h"

namespace ql {

using namespace onednn;

namespace {

// ONNX W [C, M/g, k...] seen as oneDNN's [g, M/g, C/g, k...] through strides (no copy).
dnnl::memory::desc userWeightsDesc(const Shape& w, int64_t group, Shape& dims) {
    const int64_t icg = w[0] / group, ocg = w[1];
    const Shape k(w.begin() + 2, w.end());
    const int64_t kSize = shapeElementCount(k);
    Shape strides = {kSize, ocg * kSize};  // [oc, ic]
    dims = {ocg, icg};
    if (group > 1) {
        dims.insert(dims.begin(), group);
        strides.insert(strides.begin(), icg * ocg * kSize);
    }
    const Shape kStrides = rowMajorStrides(k);
    dims.insert(dims.end(), k.begin(), k.end());
    strides.insert(strides.end(), kStrides.begin(), kStrides.end());
    return stridedDesc(dims, strides);
}

// Copies the primitive's output into the node's output, shifted by `offset` per spatial axis; cells the
// primitive did not produce get the bias of their channel (or zero).
void embed(const Tensor& from, Tensor& to, const Shape& offset, const Tensor* bias) {
    const Shape& fs = from.shape();
    const Shape& ts = to.shape();
    const size_t spatial = ts.size() - 2;
    const int64_t planeSize = shapeElementCount(Shape(ts.begin() + 2, ts.end()));
    const Shape fStrides = rowMajorStrides(fs);
    const Shape tStrides = rowMajorStrides(ts);
    const std::vector<float> b = bias ? bias->toFloats() : std::vector<float>();
    float* out = to.data<float>();
    for (int64_t n = 0; n < ts[0]; ++n)
        for (int64_t c = 0; c < ts[1]; ++c) {
            const float fill = b.empty() ? 0.0f : b[static_cast<size_t>(c)];
            const float* src = from.data<float>() + n * fStrides[0] + c * fStrides[1];
            float* dst = out + n * tStrides[0] + c * tStrides[1];
            for (int64_t i = 0; i < planeSize; ++i) {
                int64_t rest = i, fromIndex = 0;
                bool inside = true;
                for (size_t d = spatial; d-- > 0;) {
                    const int64_t o = rest % ts[d + 2] + offset[d];
                    rest /= ts[d + 2];
                    inside = inside && o >= 0 && o < fs[d + 2];
                    fromIndex += o * fStrides[d + 2];
                }
                dst[i] = inside ? src[fromIndex] : fill;
            }
        }
}

}  // namespace

Status ConvTransposeKernel::init(const KernelInit& info) {
    QL_ASSIGN_OR_RETURN(mAttrs, parseConvAttributes(info, true));
    mConstantWeights = constantInputData(info, 1);
    return Status::ok();
}

Result<ConvTransposeKernel::Plan*> ConvTransposeKernel::plan(const KernelContext& ctx, const Shape& x, const Shape& w,
                                                             bool hasBias) {
    Shape key = x;
    key.insert(key.end(), w.begin(), w.end());
    key.push_back(hasBias);
    if (auto it = mPlans.find(key); it != mPlans.end()) return &it->second;
    QL_ASSIGN_OR_RETURN(ConvGeometry g, convTransposeGeometry(ctx, mAttrs, x, w));
    const size_t spatial = x.size() - 2;
    Plan plan;
    plan.outputShape = g.outputShape;
    // oneDNN takes no output_padding and no negative pads: compute the reachable cells, then embed.
    Shape padBegin(spatial), padEnd(spatial), dims = {x[0], g.outputShape[1]};
    plan.offset.resize(spatial);
    for (size_t i = 0; i < spatial; ++i) {
        const int64_t extra = mAttrs.outputPadding.empty() ? 0 : mAttrs.outputPadding[i];
        padBegin[i] = std::max<int64_t>(0, g.padBegin[i]);
        padEnd[i] = std::max<int64_t>(0, g.padEnd[i] - extra);
        plan.offset[i] = std::min<int64_t>(0, g.padBegin[i]);
        dims.push_back((x[i + 2] - 1) * g.stride[i] + (w[i + 2] - 1) * g.dilation[i] + 1 - padBegin[i] - padEnd[i]);
    }
    WeightedPrimitive& p = plan.primitive;
    Shape wDims;
    p.userWeights = userWeightsDesc(w, mAttrs.group, wDims);
    p.hasBias = hasBias;
    p.outputShape = dims;
    Shape dilation = g.dilation;
    for (int64_t& d : dilation) d -= 1;
    const auto biasDesc = hasBias ? plainDesc({g.outputShape[1]}) : dnnl::memory::desc();
    dnnl::deconvolution_forward::desc desc(dnnl::prop_kind::forward_inference, dnnl::algorithm::deconvolution_direct,
                                           anyDesc(x), anyDesc(wDims), biasDesc, anyDesc(dims), toDims(g.stride),
                                           toDims(dilation), toDims(padBegin), toDims(padEnd));
    dnnl::deconvolution_forward::primitive_desc pd(desc, engine());
    p.primitive = dnnl::deconvolution_forward(pd);
    finishPlan(p, pd, x);
    return &mPlans.emplace(std::move(key), std::move(plan)).first->second;
}

Status ConvTransposeKernel::compute(KernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    const Tensor& w = ctx.input(1);
    const bool hasBias = ctx.hasInput(2);
    QL_RETURN_IF_ERROR(checkConvInputTypes(ctx));
    if (x.elementCount() == 0 || w.elementCount() == 0) {
        QL_ASSIGN_OR_RETURN(ConvGeometry g, convTransposeGeometry(ctx, mAttrs, x.shape(), w.shape()));
        ctx.setOutput(0, Tensor::zeros(x.dtype(), g.outputShape));
        return Status::ok();
    }
    try {
        QL_ASSIGN_OR_RETURN(Plan * p, plan(ctx, x.shape(), w.shape(), hasBias));
        if (hasBias && ctx.input(2).elementCount() != p->outputShape[1])
            return ctx.fail("bias " + shapeString(ctx.input(2).shape()) + " must hold one value per output channel (" +
                            std::to_string(p->outputShape[1]) + ")");
        const Tensor bias = hasBias ? asFloat(ctx.input(2)) : Tensor();
        QL_ASSIGN_OR_RETURN(Tensor y,
                            runWeighted(p->primitive, asFloat(x), asFloat(w), &bias, cachable(mConstantWeights, w)));
        if (y.shape() != p->outputShape) {
            Tensor full(DataType::Float, p->outputShape);
            embed(y, full, p->offset, hasBias ? &bias : nullptr);
            y = std::move(full);
        }
        ctx.setOutput(0, fromFloat(y, x.dtype()));
    } catch (const dnnl::error& e) {
        return ctx.fail(std::string("oneDNN could not run this transposed convolution: ") + e.what());
    }
    return Status::ok();
}

}  // namespace ql
