#include "core/exec/kernels/tile.h"

#include "core/exec/kernels/copy_util.h"

namespace ql {

Status TileKernel::compute(KernelContext& ctx) {
    const Tensor& in = ctx.input(0);
    QL_ASSIGN_OR_RETURN(auto repeats, readInt64Input(ctx, 1));
    if (repeats.size() != in.rank())
        return ctx.fail("repeats has " + std::to_string(repeats.size()) + " values but the input has rank " +
                        std::to_string(in.rank()));
    Shape shape = in.shape();
    for (size_t i = 0; i < shape.size(); ++i) {
        if (repeats[i] < 0) return ctx.fail("repeats must not be negative");
        shape[i] *= repeats[i];
    }
    Tensor& out = ctx.allocateOutput(0, in.dtype(), shape);
    // View the output as [r0, d0, r1, d1, ...]: each repeat axis reads the input with stride 0.
    const Strides inStrides = contiguousStrides(in.shape());
    const Strides outStrides = contiguousStrides(shape);
    Shape view;
    Strides dst, src;
    for (size_t i = 0; i < shape.size(); ++i) {
        view.insert(view.end(), {repeats[i], in.dim(i)});
        dst.insert(dst.end(), {in.dim(i) * outStrides[i], outStrides[i]});
        src.insert(src.end(), {0, inStrides[i]});
    }
    stridedCopy(view, bytesOf(out), dst, bytesOf(in), src, dataTypeSize(in.dtype()));
    return Status::ok();
}

}  // namespace ql
