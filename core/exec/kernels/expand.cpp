#include "core/exec/kernels/expand.h"

#include <algorithm>

#include "core/exec/kernels/copy_util.h"

namespace ql {

Status ExpandKernel::compute(KernelContext& ctx) {
    const Tensor& in = ctx.input(0);
    QL_ASSIGN_OR_RETURN(Shape target, readInt64Input(ctx, 1));
    const auto shape = broadcastShapes(in.shape(), target);
    if (!shape || std::any_of(target.begin(), target.end(), [](int64_t d) { return d < 0; }))
        return ctx.fail("cannot broadcast " + shapeString(in.shape()) + " to " + shapeString(target));
    Tensor& out = ctx.allocateOutput(0, in.dtype(), *shape);
    // Broadcast axes read the input with stride 0.
    const Strides inStrides = contiguousStrides(in.shape());
    const size_t lead = shape->size() - in.rank();
    Strides src(shape->size(), 0);
    for (size_t i = 0; i < in.rank(); ++i) src[lead + i] = in.dim(i) == 1 ? 0 : inStrides[i];
    stridedCopy(*shape, bytesOf(out), contiguousStrides(*shape), bytesOf(in), src, dataTypeSize(in.dtype()));
    return Status::ok();
}

}  // namespace ql
