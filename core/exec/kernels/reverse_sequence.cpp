#include "core/exec/kernels/reverse_sequence.h"

#include <cstring>

#include "core/exec/kernels/copy_util.h"

namespace ql {

Status ReverseSequenceKernel::init(const KernelInit& info) {
    mTimeAxis = info.node.intAttribute("time_axis", 0);
    mBatchAxis = info.node.intAttribute("batch_axis", 1);
    if (!((mTimeAxis == 0 && mBatchAxis == 1) || (mTimeAxis == 1 && mBatchAxis == 0)))
        return info.fail("time_axis and batch_axis must be 0 and 1 (in either order)");
    return Status::ok();
}

Status ReverseSequenceKernel::compute(KernelContext& ctx) {
    if (!ctx.hasInput(0) || !ctx.hasInput(1)) return ctx.fail("needs inputs input and sequence_lens");
    const Tensor& x = ctx.input(0);
    if (x.rank() < 2) return ctx.fail("the input needs rank 2 or more, not " + shapeString(x.shape()));
    QL_ASSIGN_OR_RETURN(const std::vector<int64_t> lengths, readInt64Input(ctx, 1));
    const int64_t steps = x.dim(static_cast<size_t>(mTimeAxis)), batch = x.dim(static_cast<size_t>(mBatchAxis));
    if (static_cast<int64_t>(lengths.size()) != batch)
        return ctx.fail("sequence_lens has " + std::to_string(lengths.size()) + " values for a batch of " +
                        std::to_string(batch));
    const size_t slice =
        dataTypeSize(x.dtype()) * static_cast<size_t>(x.elementCount() / std::max<int64_t>(1, steps * batch));
    Tensor& y = ctx.allocateOutput(0, x.dtype(), x.shape());
    for (int64_t b = 0; b < batch; ++b) {
        const int64_t length = lengths[static_cast<size_t>(b)];
        if (length < 0 || length > steps)
            return ctx.fail("sequence length " + std::to_string(length) + " is outside [0, " + std::to_string(steps) +
                            "]");
        for (int64_t t = 0; t < steps; ++t) {
            const int64_t from = t < length ? length - 1 - t : t;
            auto offset = [&](int64_t time) {
                const int64_t index = mTimeAxis == 0 ? time * batch + b : b * steps + time;
                return static_cast<size_t>(index) * slice;
            };
            std::memcpy(bytesOf(y) + offset(t), bytesOf(x) + offset(from), slice);
        }
    }
    return Status::ok();
}

}  // namespace ql
