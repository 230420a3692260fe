#include "core/exec/kernels/gather_nd.h"

#include "core/exec/kernels/copy_util.h"
#include "core/exec/kernels/nd_index.h"

namespace ql {

Status GatherNDKernel::init(const KernelInit& info) {
    mBatchDims = info.node.intAttribute("batch_dims", 0);
    return Status::ok();
}

Status GatherNDKernel::compute(KernelContext& ctx) {
    const Tensor& data = ctx.input(0);
    const Shape& is = ctx.input(1).shape();
    QL_ASSIGN_OR_RETURN(auto indices, readInt64Input(ctx, 1));
    QL_ASSIGN_OR_RETURN(NdSlices s, ndSlices(ctx, data.shape(), is, indices, mBatchDims));
    Shape shape(is.begin(), is.end() - 1);
    shape.insert(shape.end(), s.sliceShape.begin(), s.sliceShape.end());
    Tensor& out = ctx.allocateOutput(0, data.dtype(), shape);
    for (size_t t = 0; t < s.offsets.size(); ++t)
        copyElements(out, static_cast<int64_t>(t) * s.sliceSize, data, s.offsets[t], s.sliceSize);
    return Status::ok();
}

}  // namespace ql
