#include "core/exec/kernels/trilu.h"

#include <algorithm>
#include <cstring>

#include "core/exec/kernels/copy_util.h"

namespace ql {

Status TriluKernel::init(const KernelInit& info) {
    mUpper = info.node.intAttribute("upper", 1) != 0;
    return Status::ok();
}

Status TriluKernel::compute(KernelContext& ctx) {
    const Tensor& in = ctx.input(0);
    if (in.rank() < 2) return ctx.fail("the input must have rank 2 or more, not " + shapeString(in.shape()));
    int64_t k = 0;
    if (ctx.hasInput(1)) {
        QL_ASSIGN_OR_RETURN(auto given, readInt64Input(ctx, 1));
        if (given.size() != 1) return ctx.fail("k must hold one value");
        k = given[0];
    }
    const int64_t rows = in.dim(in.rank() - 2), cols = in.dim(in.rank() - 1);
    const int64_t matrices = rows * cols == 0 ? 0 : in.elementCount() / (rows * cols);
    Tensor& out = ctx.allocateOutput(0, in.dtype(), in.shape());
    std::memset(out.rawData(), 0, out.byteSize());
    // Row r keeps columns [r + k, cols) when upper, [0, r + k] when lower.
    for (int64_t m = 0; m < matrices; ++m) {
        for (int64_t r = 0; r < rows; ++r) {
            const int64_t first = mUpper ? std::clamp(r + k, int64_t{0}, cols) : 0;
            const int64_t last = mUpper ? cols : std::clamp(r + k + 1, int64_t{0}, cols);
            const int64_t row = (m * rows + r) * cols;
            copyElements(out, row + first, in, row + first, last - first);
        }
    }
    return Status::ok();
}

}  // namespace ql
