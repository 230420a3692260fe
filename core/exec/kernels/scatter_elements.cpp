#include "core/exec/kernels/scatter_elements.h"

#include "core/exec/kernels/copy_util.h"

namespace ql {

Status ScatterElementsKernel::init(const KernelInit& info) {
    mAxis = info.node.intAttribute("axis", 0);
    QL_ASSIGN_OR_RETURN(mReduction, parseScatterReduction(info));
    return Status::ok();
}

Status ScatterElementsKernel::compute(KernelContext& ctx) {
    const Tensor& data = ctx.input(0);
    const Tensor& updates = ctx.input(2);
    if (updates.shape() != ctx.input(1).shape() || updates.dtype() != data.dtype())
        return ctx.fail("updates " + shapeString(updates.shape()) + " must match indices " +
                        shapeString(ctx.input(1).shape()) + " and have the dtype of data");
    QL_ASSIGN_OR_RETURN(auto indices, readInt64Input(ctx, 1));
    QL_ASSIGN_OR_RETURN(auto offsets, elementOffsets(ctx, data.shape(), updates.shape(), indices, mAxis));
    Tensor out = data.clone();
    const bool known = visitNumeric(
        data.dtype(), [&]<typename T>(T) { scatterInto(out.data<T>(), updates.data<T>(), offsets, 1, mReduction); });
    if (!known) return ctx.fail(std::string("dtype ") + dataTypeName(data.dtype()) + " is not supported");
    ctx.setOutput(0, std::move(out));
    return Status::ok();
}

}  // namespace ql
