#include "core/exec/kernels/conv.h"

#include <algorithm>

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

}  // namespace

Status ConvKernel::init(const KernelInit& info) {
    QL_ASSIGN_OR_RETURN(mAttrs, parseConvAttributes(info, false));
    mConstantWeights = constantInputData(info, 1);
    return Status::ok();
}

Result<WeightedPrimitive*> ConvKernel::plan(const KernelContext& ctx, const Shape& x, const Shape& w, bool hasBias) {
    Shape key = x;
    key.insert(key.end(), w.begin(), w.end());
    key.push_back(hasBias);
    if (auto it = mPlans.find(key); it != mPlans.end()) return &it->second;
    QL_ASSIGN_OR_RETURN(ConvGeometry g, convGeometry(ctx, mAttrs, x, w));
    WeightedPrimitive p;
    const Shape wShape = mAttrs.group > 1 ? groupedWeights(w, mAttrs.group) : w;
    p.userWeights = plainDesc(wShape);
    p.hasBias = hasBias;
    p.outputShape = g.outputShape;
    const auto biasDesc = hasBias ? plainDesc({w[0]}) : dnnl::memory::desc();
    dnnl::convolution_forward::desc desc(dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct,
                                         anyDesc(x), anyDesc(wShape), biasDesc, anyDesc(g.outputShape),
                                         toDims(g.stride), toDims(oneDnnDilation(g.dilation)), toDims(g.padBegin),
                                         toDims(g.padEnd));
    dnnl::convolution_forward::primitive_desc pd(desc, postOpAttr(mFusion.postOps), engine());
    p.primitive = dnnl::convolution_forward(pd);
    finishPlan(p, pd, x);
    return &mPlans.emplace(std::move(key), std::move(p)).first->second;
}

bool ConvKernel::hasSum() const {
    return std::any_of(mFusion.postOps.begin(), mFusion.postOps.end(), [](const PostOp& op) { return op.sum; });
}

Status ConvKernel::compute(KernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    const Tensor& w = ctx.input(1);
    const bool hasBias = ctx.hasInput(2);
    QL_RETURN_IF_ERROR(checkConvInputTypes(ctx));
    if (hasBias && (ctx.input(2).rank() != 1 || w.rank() < 1 || ctx.input(2).dim(0) != w.dim(0)))
        return ctx.fail("bias " + shapeString(ctx.input(2).shape()) + " must be 1-D with one value per output channel");
    if (x.elementCount() == 0 || w.elementCount() == 0) {
        QL_ASSIGN_OR_RETURN(ConvGeometry g, convGeometry(ctx, mAttrs, x.shape(), w.shape()));
        ctx.setOutput(0, Tensor::zeros(x.dtype(), g.outputShape));
        return Status::ok();
    }
    try {
        QL_ASSIGN_OR_RETURN(WeightedPrimitive * p, plan(ctx, x.shape(), w.shape(), hasBias));
        const Tensor bias = hasBias ? asFloat(ctx.input(2)) : Tensor();
        WeightedRun run{nullptr, mKeepLayout && x.dtype() == DataType::Float};
        if (hasSum()) {
            if (!ctx.hasInput(3) || ctx.input(3).shape() != p->outputShape || ctx.input(3).dtype() != DataType::Float)
                return ctx.fail("the fused Add operand does not match the convolution output " +
                                shapeString(p->outputShape));
            run.sum = &ctx.input(3);
        }
        QL_ASSIGN_OR_RETURN(Tensor y,
                            runWeighted(*p, asFloat(x), asFloat(w), &bias, cachable(mConstantWeights, w), run));
        ctx.setOutput(0, fromFloat(y, x.dtype()));
    } catch (const dnnl::error& e) {
        return ctx.fail(std::string("oneDNN could not run this convolution: ") + e.what());
    }
    return Status::ok();
}

}  // namespace ql
