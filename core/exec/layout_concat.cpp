#include "core/exec/layout_concat.h"

#include "core/exec/onednn_util.h"

namespace ql {

Status LayoutConcatKernel::init(const KernelInit& info) {
    mAxis = info.node.intAttribute("axis", 0);
    return Status::ok();
}

// Float N x C x H x W inputs (at least one element each) joined along C.
bool LayoutConcatKernel::fits(const KernelContext& ctx) const {
    if (mAxis != 1 && mAxis != -3) return false;
    for (size_t i = 0; i < ctx.inputCount(); ++i) {
        if (!ctx.hasInput(i)) return false;
        const Tensor& t = ctx.input(i);
        const Shape& first = ctx.input(0).shape();
        if (t.dtype() != DataType::Float || t.rank() != 4 || t.elementCount() == 0) return false;
        if (t.dim(0) != first[0] || t.dim(2) != first[2] || t.dim(3) != first[3]) return false;
    }
    return ctx.inputCount() > 0;
}

Status LayoutConcatKernel::compute(KernelContext& ctx) {
    if (!hasLayoutInput(ctx)) return mPlain.compute(ctx);
    if (!fits(ctx)) return computeOnPlain(ctx, [this](KernelContext& plain) { return mPlain.compute(plain); });
    std::vector<dnnl::memory::desc> srcs;
    std::unordered_map<int, dnnl::memory> args;
    Shape shape = ctx.input(0).shape();
    shape[1] = 0;
    for (size_t i = 0; i < ctx.inputCount(); ++i) {
        srcs.push_back(onednn::descOf(ctx.input(i)));
        args[DNNL_ARG_MULTIPLE_SRC + static_cast<int>(i)] = onednn::memoryOf(ctx.input(i));
        shape[1] += ctx.input(i).dim(1);
    }
    try {
        const auto dst = mKeepLayout ? onednn::anyDesc(shape) : onednn::plainDesc(shape);
        dnnl::concat::primitive_desc pd(dst, 1, srcs, onednn::engine());
        Tensor y = onednn::allocateIn(pd.dst_desc(), shape);
        args[DNNL_ARG_DST] = onednn::memoryOf(y);
        dnnl::concat(pd).execute(onednn::stream(), args);
        onednn::stream().wait();
        ctx.setOutput(0, std::move(y));
    } catch (const dnnl::error& e) {
        return ctx.fail(std::string("oneDNN could not run this Concat: ") + e.what());
    }
    return Status::ok();
}

}  // namespace ql
