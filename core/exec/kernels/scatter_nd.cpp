#include "core/exec/kernels/scatter_nd.h"

#include "core/exec/kernels/copy_util.h"
#include "core/exec/kernels/nd_index.h"

namespace ql {

Status ScatterNDKernel::init(const KernelInit& info) {
    QL_ASSIGN_OR_RETURN(mReduction, parseScatterReduction(info));
    return Status::ok();
}

Status ScatterNDKernel::compute(KernelContext& ctx) {
    const Tensor& data = ctx.input(0);
    const Shape& is = ctx.input(1).shape();
    const Tensor& updates = ctx.input(2);
    QL_ASSIGN_OR_RETURN(auto indices, readInt64Input(ctx, 1));
    QL_ASSIGN_OR_RETURN(NdSlices s, ndSlices(ctx, data.shape(), is, indices, 0));
    Shape expected(is.begin(), is.end() - 1);
    expected.insert(expected.end(), s.sliceShape.begin(), s.sliceShape.end());
    if (updates.shape() != expected || updates.dtype() != data.dtype())
        return ctx.fail("updates " + shapeString(updates.shape()) + " must have shape " + shapeString(expected) +
                        " and the dtype of data");
    Tensor out = data.clone();
    const bool known = visitNumeric(data.dtype(), [&]<typename T>(T) {
        scatterInto(out.data<T>(), updates.data<T>(), s.offsets, s.sliceSize, mReduction);
    });
    if (!known) return ctx.fail(std::string("dtype ") + dataTypeName(data.dtype()) + " is not supported");
    ctx.setOutput(0, std::move(out));
    return Status::ok();
}

}  // namespace ql
