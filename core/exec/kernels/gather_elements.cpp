#include "core/exec/kernels/gather_elements.h"

#include "core/exec/kernels/copy_util.h"

namespace ql {

Status GatherElementsKernel::init(const KernelInit& info) {
    mAxis = info.node.intAttribute("axis", 0);
    return Status::ok();
}

Status GatherElementsKernel::compute(KernelContext& ctx) {
    const Tensor& data = ctx.input(0);
    const Tensor& indexTensor = ctx.input(1);
    QL_ASSIGN_OR_RETURN(auto indices, readInt64Input(ctx, 1));
    QL_ASSIGN_OR_RETURN(auto offsets, elementOffsets(ctx, data.shape(), indexTensor.shape(), indices, mAxis));
    Tensor& out = ctx.allocateOutput(0, data.dtype(), indexTensor.shape());
    for (size_t i = 0; i < offsets.size(); ++i) copyElements(out, static_cast<int64_t>(i), data, offsets[i], 1);
    return Status::ok();
}

}  // namespace ql
