#include "core/exec/kernels/if.h"

#include "core/exec/kernels/control_flow_util.h"

namespace ql {

Status IfKernel::init(const KernelInit& info) {
    QL_ASSIGN_OR_RETURN(mThen, Subgraph::create(info, "then_branch"));
    QL_ASSIGN_OR_RETURN(mElse, Subgraph::create(info, "else_branch"));
    for (const Subgraph* branch : {mThen.get(), mElse.get()})
        if (branch->outputCount() != info.node.outputs.size())
            return info.fail("a branch has " + std::to_string(branch->outputCount()) + " outputs but the node has " +
                             std::to_string(info.node.outputs.size()) + ": both branches must give every output");
    Subgraph* branches[] = {mThen.get(), mElse.get()};
    mOuterScope = Subgraph::bindOuterScope(branches, info.node.inputs.size());
    return Status::ok();
}

Status IfKernel::compute(KernelContext& ctx) {
    QL_ASSIGN_OR_RETURN(const bool condition, readCondition(ctx, 0));
    QL_ASSIGN_OR_RETURN(std::vector<Tensor> outputs, (condition ? mThen : mElse)->run(ctx, {}));
    for (size_t i = 0; i < outputs.size() && i < ctx.outputCount(); ++i) ctx.setOutput(i, std::move(outputs[i]));
    return Status::ok();
}

}  // namespace ql
