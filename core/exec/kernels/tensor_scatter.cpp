#include "core/exec/kernels/tensor_scatter.h"

#include "core/exec/kernels/copy_util.h"

namespace ql {

Status TensorScatterKernel::init(const KernelInit& info) {
    mAxis = info.node.intAttribute("axis", -2);
    const std::string mode = info.node.stringAttribute("mode", "linear");
    if (mode != "linear" && mode != "circular") return info.fail("mode must be linear or circular, not '" + mode + "'");
    mCircular = mode == "circular";
    return Status::ok();
}

Status TensorScatterKernel::compute(KernelContext& ctx) {
    if (!ctx.hasInput(0) || !ctx.hasInput(1)) return ctx.fail("needs inputs past_cache and update");
    const Tensor &past = ctx.input(0), &update = ctx.input(1);
    const auto axis = normalizeAxis(mAxis, static_cast<int64_t>(past.rank()));
    if (!axis || *axis == 0 || update.rank() != past.rank() || update.dtype() != past.dtype())
        return ctx.fail("update must have past_cache's rank and type, and axis must be a non-batch axis");
    for (size_t d = 0; d < past.rank(); ++d)
        if (static_cast<int64_t>(d) != *axis && update.dim(d) != past.dim(d))
            return ctx.fail("update " + shapeString(update.shape()) + " must match past_cache " +
                            shapeString(past.shape()) + " outside the axis");
    const int64_t batch = past.dim(0), length = past.dim(static_cast<size_t>(*axis)),
                  steps = update.dim(static_cast<size_t>(*axis));
    std::vector<int64_t> starts(static_cast<size_t>(batch), 0);
    if (ctx.hasInput(2)) {
        QL_ASSIGN_OR_RETURN(starts, readInt64Input(ctx, 2));
        if (static_cast<int64_t>(starts.size()) != batch)
            return ctx.fail("write_indices needs one index per batch entry");
    }
    int64_t outer = 1, inner = 1;
    for (size_t d = 0; d < past.rank(); ++d) {
        if (static_cast<int64_t>(d) < *axis) outer *= past.dim(d);
        if (static_cast<int64_t>(d) > *axis) inner *= past.dim(d);
    }
    Tensor y = past.clone();
    const int64_t perBatch = outer / std::max<int64_t>(1, batch);
    for (int64_t o = 0; o < outer; ++o) {
        const int64_t start = starts[static_cast<size_t>(o / std::max<int64_t>(1, perBatch))];
        for (int64_t t = 0; t < steps; ++t) {
            int64_t position = start + t;
            if (mCircular) position = ((position % length) + length) % length;
            if (position < 0 || position >= length)
                return ctx.fail("writing step " + std::to_string(t) + " at " + std::to_string(position) +
                                " leaves the cache's axis of " + std::to_string(length) + " (use mode circular?)");
            copyElements(y, (o * length + position) * inner, update, (o * steps + t) * inner, inner);
        }
    }
    ctx.setOutput(0, std::move(y));
    return Status::ok();
}

}  // namespace ql
