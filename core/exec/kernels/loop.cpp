#include "core/exec/kernels/loop.h"

#include <limits>

#include "core/exec/executor.h"
#include "core/exec/kernels/control_flow_util.h"

namespace ql {

Status LoopKernel::init(const KernelInit& info) {
    const Node& node = info.node;
    if (node.inputs.size() < 2) return info.fail("needs the inputs M and cond (either may be empty)");
    mCarried = node.inputs.size() - 2;
    QL_ASSIGN_OR_RETURN(mBody, Subgraph::create(info, "body"));
    if (mBody->formalInputCount() != mCarried + 2)
        return info.fail("the body takes " + std::to_string(mBody->formalInputCount()) + " inputs; it must take " +
                         std::to_string(mCarried + 2) + " (iteration number, condition and the " +
                         std::to_string(mCarried) + " loop-carried values)");
    if (mBody->outputCount() != node.outputs.size() + 1 || node.outputs.size() < mCarried)
        return info.fail("the body gives " + std::to_string(mBody->outputCount()) + " outputs; it must give " +
                         std::to_string(node.outputs.size() + 1) +
                         " (the condition, the loop-carried values and the scan outputs)");
    Subgraph* body[] = {mBody.get()};
    mOuterScope = Subgraph::bindOuterScope(body, node.inputs.size());
    return Status::ok();
}

Status LoopKernel::compute(KernelContext& ctx) {
    int64_t tripCount = std::numeric_limits<int64_t>::max();
    if (ctx.hasInput(0)) {
        QL_ASSIGN_OR_RETURN(tripCount, readScalarInt(ctx, 0));
    }
    bool condition = true;
    if (ctx.hasInput(1)) {
        QL_ASSIGN_OR_RETURN(condition, readCondition(ctx, 1));
    }
    std::vector<Tensor> carried;
    for (size_t i = 0; i < mCarried; ++i) {
        if (!ctx.hasInput(2 + i)) return ctx.fail("loop-carried input " + std::to_string(2 + i) + " is missing");
        carried.push_back(ctx.input(2 + i));
    }
    const size_t scanCount = mBody->outputCount() - 1 - mCarried;
    std::vector<std::vector<Tensor>> scans(scanCount);
    const RunOptions* run = ctx.runOptions();
    for (int64_t i = 0; i < tripCount && condition; ++i) {
        if (run && run->stop.stop_requested()) return cancelled();
        std::vector<Tensor> inputs{scalarInt64(i), scalarBool(condition)};
        inputs.insert(inputs.end(), carried.begin(), carried.end());
        QL_ASSIGN_OR_RETURN(std::vector<Tensor> outputs, mBody->run(ctx, std::move(inputs)));
        if (outputs[0].elementCount() != 1) return ctx.fail("the body's condition output must hold one element");
        condition = outputs[0].dtype() == DataType::Bool ? outputs[0].data<uint8_t>()[0] != 0
                                                         : outputs[0].toFloats()[0] != 0.0f;
        for (size_t c = 0; c < mCarried; ++c) carried[c] = std::move(outputs[1 + c]);
        for (size_t k = 0; k < scanCount; ++k) scans[k].push_back(std::move(outputs[1 + mCarried + k]));
    }
    for (size_t c = 0; c < mCarried; ++c) ctx.setOutput(c, std::move(carried[c]));
    for (size_t k = 0; k < scanCount && mCarried + k < ctx.outputCount(); ++k) {
        QL_ASSIGN_OR_RETURN(Tensor stacked, stackAlong(ctx, scans[k], 0, false, mBody->outputType(1 + mCarried + k),
                                                       "scan output " + std::to_string(k)));
        ctx.setOutput(mCarried + k, std::move(stacked));
    }
    return Status::ok();
}

}  // namespace ql
