#include "core/exec/kernels/identity.h"

namespace ql {

Status IdentityKernel::compute(KernelContext& ctx) {
    if (!ctx.hasInput(0)) return ctx.fail("needs an input");
    ctx.setOutput(0, ctx.input(0));
    return Status::ok();
}

}  // namespace ql
