#include "core/exec/kernels/split.h"

#include <numeric>

#include "core/exec/kernels/copy_util.h"

namespace ql {

Status SplitKernel::init(const KernelInit& info) {
    mAxis = info.node.intAttribute("axis", 0);
    mSplitFromInput = info.opset >= 13;
    mSplit = info.node.intsAttribute("split");
    return Status::ok();
}

Status SplitKernel::compute(KernelContext& ctx) {
    const Tensor& in = ctx.input(0);
    const auto axisOpt = normalizeAxis(mAxis, static_cast<int64_t>(in.rank()));
    if (!axisOpt)
        return ctx.fail("axis " + std::to_string(mAxis) + " is out of range for rank " + std::to_string(in.rank()));
    const auto axis = static_cast<size_t>(*axisOpt);
    std::vector<int64_t> split = mSplit;
    if (mSplitFromInput && ctx.hasInput(1)) {
        QL_ASSIGN_OR_RETURN(split, readInt64Input(ctx, 1));
    }
    const auto parts = static_cast<int64_t>(ctx.outputCount());
    if (parts == 0) return ctx.fail("needs at least one output");
    if (split.empty()) {
        const int64_t chunk = (in.dim(axis) + parts - 1) / parts;
        for (int64_t i = 0, left = in.dim(axis); i < parts; ++i, left -= chunk) split.push_back(std::min(chunk, left));
    }
    if (static_cast<int64_t>(split.size()) != parts ||
        std::accumulate(split.begin(), split.end(), int64_t{0}) != in.dim(axis))
        return ctx.fail("split sizes " + shapeString(split) + " do not cover axis " + std::to_string(axis) +
                        " of size " + std::to_string(in.dim(axis)) + " in " + std::to_string(parts) + " outputs");
    const Strides inStrides = contiguousStrides(in.shape());
    const size_t size = dataTypeSize(in.dtype());
    int64_t offset = 0;
    for (size_t i = 0; i < split.size(); ++i) {
        if (split[i] < 0) return ctx.fail("split sizes must not be negative");
        Shape shape = in.shape();
        shape[axis] = split[i];
        Tensor& out = ctx.allocateOutput(i, in.dtype(), shape);
        stridedCopy(shape, bytesOf(out), contiguousStrides(shape),
                    bytesOf(in) + static_cast<size_t>(offset * inStrides[axis]) * size, inStrides, size);
        offset += split[i];
    }
    return Status::ok();
}

}  // namespace ql
