#include "core/exec/kernels/concat.h"

#include "core/exec/kernels/copy_util.h"

namespace ql {

Status ConcatKernel::init(const KernelInit& info) {
    if (!info.node.attribute("axis")) return info.fail("the axis attribute is required");
    mAxis = info.node.intAttribute("axis", 0);
    return Status::ok();
}

Status ConcatKernel::compute(KernelContext& ctx) {
    if (!ctx.hasInput(0)) return ctx.fail("needs at least one input");
    const Tensor& first = ctx.input(0);
    const auto axisOpt = normalizeAxis(mAxis, static_cast<int64_t>(first.rank()));
    if (!axisOpt)
        return ctx.fail("axis " + std::to_string(mAxis) + " is out of range for rank " + std::to_string(first.rank()));
    const auto axis = static_cast<size_t>(*axisOpt);
    Shape shape = first.shape();
    shape[axis] = 0;
    for (size_t i = 0; i < ctx.inputCount(); ++i) {
        const Tensor& t = ctx.input(i);
        bool same = t.dtype() == first.dtype() && t.rank() == first.rank();
        for (size_t d = 0; same && d < t.rank(); ++d) same = d == axis || t.dim(d) == first.dim(d);
        if (!same)
            return ctx.fail("input " + std::to_string(i) + " " + shapeString(t.shape()) + " does not match input 0 " +
                            shapeString(first.shape()) + " outside axis " + std::to_string(axis));
        shape[axis] += t.dim(axis);
    }
    Tensor& out = ctx.allocateOutput(0, first.dtype(), shape);
    const Strides outStrides = contiguousStrides(shape);
    const size_t size = dataTypeSize(first.dtype());
    int64_t offset = 0;
    for (size_t i = 0; i < ctx.inputCount(); ++i) {
        const Tensor& t = ctx.input(i);
        stridedCopy(t.shape(), bytesOf(out) + static_cast<size_t>(offset * outStrides[axis]) * size, outStrides,
                    bytesOf(t), contiguousStrides(t.shape()), size);
        offset += t.dim(axis);
    }
    return Status::ok();
}

}  // namespace ql
