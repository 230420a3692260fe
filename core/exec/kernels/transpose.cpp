#include "core/exec/kernels/transpose.h"

#include <algorithm>
#include <numeric>

#include "core/exec/kernels/copy_util.h"

namespace ql {

Status TransposeKernel::init(const KernelInit& info) {
    mPerm = info.node.intsAttribute("perm");
    return Status::ok();
}

Status TransposeKernel::compute(KernelContext& ctx) {
    const Tensor& in = ctx.input(0);
    std::vector<int64_t> perm = mPerm;
    if (perm.empty()) {
        perm.resize(in.rank());
        std::iota(perm.rbegin(), perm.rend(), 0);
    }
    QL_ASSIGN_OR_RETURN(perm, normalizeAxes(ctx, perm, static_cast<int64_t>(in.rank())));
    if (perm.size() != in.rank())
        return ctx.fail("perm has " + std::to_string(perm.size()) + " axes but the input has rank " +
                        std::to_string(in.rank()));
    Shape shape(perm.size());
    for (size_t i = 0; i < perm.size(); ++i) shape[i] = in.dim(static_cast<size_t>(perm[i]));
    Tensor& out = ctx.allocateOutput(0, in.dtype(), shape);
    permuteCopy(bytesOf(in), in.shape(), perm, bytesOf(out), dataTypeSize(in.dtype()));
    return Status::ok();
}

}  // namespace ql
