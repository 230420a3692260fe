#include "core/exec/kernels/max_unpool.h"

#include <cstring>

#include "core/exec/kernels/copy_util.h"

namespace ql {

Status MaxUnpoolKernel::init(const KernelInit& info) {
    mKernel = info.node.intsAttribute("kernel_shape");
    mStrides = info.node.intsAttribute("strides");
    mPads = info.node.intsAttribute("pads");
    const size_t n = mKernel.size();
    if (n == 0) return info.fail("kernel_shape must be given");
    if (mStrides.empty()) mStrides.assign(n, 1);
    if (mPads.empty()) mPads.assign(2 * n, 0);
    if (mStrides.size() != n || mPads.size() != 2 * n)
        return info.fail("strides and pads must match kernel_shape (" + std::to_string(n) + " axes)");
    return Status::ok();
}

Status MaxUnpoolKernel::compute(KernelContext& ctx) {
    if (!ctx.hasInput(0) || !ctx.hasInput(1)) return ctx.fail("needs inputs X and I");
    const Tensor& x = ctx.input(0);
    const size_t spatial = mKernel.size();
    if (x.rank() != spatial + 2)
        return ctx.fail("X " + shapeString(x.shape()) + " does not have rank " + std::to_string(spatial + 2));
    QL_ASSIGN_OR_RETURN(const std::vector<int64_t> indices, readInt64Input(ctx, 1));
    if (static_cast<int64_t>(indices.size()) != x.elementCount()) return ctx.fail("I must have X's shape");
    Shape shape{x.dim(0), x.dim(1)};
    for (size_t i = 0; i < spatial; ++i)
        shape.push_back((x.dim(2 + i) - 1) * mStrides[i] - mPads[i] - mPads[spatial + i] + mKernel[i]);
    Tensor y = Tensor::zeros(x.dtype(), shape);
    for (size_t i = 0; i < indices.size(); ++i) {
        if (indices[i] < 0 || indices[i] >= y.elementCount())
            return ctx.fail("index " + std::to_string(indices[i]) + " is outside the output " + shapeString(shape));
        copyElements(y, indices[i], x, static_cast<int64_t>(i), 1);
    }
    if (!ctx.hasInput(2)) {
        ctx.setOutput(0, std::move(y));
        return Status::ok();
    }
    // output_shape: the indices still address the shape above, which lands at the origin of a larger zero tensor.
    QL_ASSIGN_OR_RETURN(const Shape requested, readInt64Input(ctx, 2));
    if (requested.size() != x.rank()) return ctx.fail("output_shape must give every axis of the output");
    for (size_t d = 0; d < shape.size(); ++d)
        if (requested[d] < shape[d])
            return ctx.fail("output_shape " + shapeString(requested) + " is smaller than " + shapeString(shape));
    Tensor& out = ctx.allocateOutput(0, x.dtype(), requested);
    std::memset(out.rawData(), 0, out.byteSize());
    stridedCopy(shape, bytesOf(out), contiguousStrides(requested), bytesOf(y), contiguousStrides(shape),
                dataTypeSize(x.dtype()));
    return Status::ok();
}

}  // namespace ql
