#include "core/exec/kernels/slice.h"

#include <algorithm>
#include <numeric>

#include "core/exec/kernels/copy_util.h"

namespace ql {

namespace {

struct SliceArgs {
    std::vector<int64_t> starts, ends, axes, steps;
};

Result<SliceArgs> sliceInputs(const KernelContext& ctx) {
    SliceArgs a;
    QL_ASSIGN_OR_RETURN(a.starts, readInt64Input(ctx, 1));
    QL_ASSIGN_OR_RETURN(a.ends, readInt64Input(ctx, 2));
    if (ctx.hasInput(3)) {
        QL_ASSIGN_OR_RETURN(a.axes, readInt64Input(ctx, 3));
    }
    if (ctx.hasInput(4)) {
        QL_ASSIGN_OR_RETURN(a.steps, readInt64Input(ctx, 4));
    }
    return a;
}

}  // namespace

Status SliceKernel::init(const KernelInit& info) {
    mFromInputs = info.opset >= 10;
    mStarts = info.node.intsAttribute("starts");
    mEnds = info.node.intsAttribute("ends");
    mAxes = info.node.intsAttribute("axes");
    return Status::ok();
}

Status SliceKernel::compute(KernelContext& ctx) {
    const Tensor& in = ctx.input(0);
    SliceArgs a{mStarts, mEnds, mAxes, {}};
    if (mFromInputs) {
        QL_ASSIGN_OR_RETURN(a, sliceInputs(ctx));
    }
    const size_t n = a.starts.size();
    if (a.axes.empty()) {
        a.axes.resize(n);
        std::iota(a.axes.begin(), a.axes.end(), 0);
    }
    if (a.steps.empty()) a.steps.assign(n, 1);
    if (a.ends.size() != n || a.axes.size() != n || a.steps.size() != n)
        return ctx.fail("starts, ends, axes and steps must have the same length");
    QL_ASSIGN_OR_RETURN(auto axes, normalizeAxes(ctx, a.axes, static_cast<int64_t>(in.rank())));
    Shape shape = in.shape();
    const Strides inStrides = contiguousStrides(in.shape());
    Strides srcStrides = inStrides;
    int64_t offset = 0;
    for (size_t i = 0; i < n; ++i) {
        const auto axis = static_cast<size_t>(axes[i]);
        const int64_t dim = in.dim(axis), step = a.steps[i];
        if (step == 0) return ctx.fail("steps must not be 0");
        if (dim == 0) continue;  // an empty axis stays empty
        int64_t start = a.starts[i] < 0 ? a.starts[i] + dim : a.starts[i];
        int64_t end = a.ends[i] < 0 ? a.ends[i] + dim : a.ends[i];
        // Clamp as numpy: [0, dim] walking forward, [-1, dim - 1] walking backward.
        start = step > 0 ? std::clamp(start, int64_t{0}, dim) : std::clamp(start, int64_t{0}, dim - 1);
        end = step > 0 ? std::clamp(end, int64_t{0}, dim) : std::clamp(end, int64_t{-1}, dim - 1);
        const int64_t count = step > 0 ? (end - start + step - 1) / step : (start - end - step - 1) / -step;
        shape[axis] = std::max<int64_t>(0, count);
        offset += start * inStrides[axis];
        srcStrides[axis] = inStrides[axis] * step;
    }
    Tensor& out = ctx.allocateOutput(0, in.dtype(), shape);
    const size_t size = dataTypeSize(in.dtype());
    if (out.elementCount() > 0)
        stridedCopy(shape, bytesOf(out), contiguousStrides(shape), bytesOf(in) + static_cast<size_t>(offset) * size,
                    srcStrides, size);
    return Status::ok();
}

}  // namespace ql
