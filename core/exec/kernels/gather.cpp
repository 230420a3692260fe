#include "core/exec/kernels/gather.h"

#include "core/exec/kernels/copy_util.h"

namespace ql {

Status GatherKernel::init(const KernelInit& info) {
    mAxis = info.node.intAttribute("axis", 0);
    return Status::ok();
}

Status GatherKernel::compute(KernelContext& ctx) {
    const Tensor& data = ctx.input(0);
    QL_ASSIGN_OR_RETURN(auto indices, readInt64Input(ctx, 1));
    const auto axisOpt = normalizeAxis(mAxis, static_cast<int64_t>(data.rank()));
    if (!axisOpt)
        return ctx.fail("axis " + std::to_string(mAxis) + " is out of range for rank " + std::to_string(data.rank()));
    const auto axis = static_cast<size_t>(*axisOpt);
    const Shape& ds = data.shape();
    const Shape& is = ctx.input(1).shape();
    Shape shape(ds.begin(), ds.begin() + static_cast<std::ptrdiff_t>(axis));
    shape.insert(shape.end(), is.begin(), is.end());
    shape.insert(shape.end(), ds.begin() + static_cast<std::ptrdiff_t>(axis) + 1, ds.end());
    const int64_t outer = shapeElementCount(Shape(ds.begin(), ds.begin() + static_cast<std::ptrdiff_t>(axis)));
    const int64_t inner = shapeElementCount(Shape(ds.begin() + static_cast<std::ptrdiff_t>(axis) + 1, ds.end()));
    const int64_t dim = data.dim(axis);
    for (int64_t& i : indices) {
        const auto n = normalizeAxis(i, dim);
        if (!n) return ctx.fail("index " + std::to_string(i) + " is out of range for axis size " + std::to_string(dim));
        i = *n;
    }
    Tensor& out = ctx.allocateOutput(0, data.dtype(), shape);
    const auto count = static_cast<int64_t>(indices.size());
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t k = 0; k < count; ++k)
            copyElements(out, (o * count + k) * inner, data, (o * dim + indices[static_cast<size_t>(k)]) * inner,
                         inner);
    return Status::ok();
}

}  // namespace ql
