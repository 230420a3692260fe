#include "core/exec/kernels/logical.h"

#include "core/exec/kernels/elementwise_util.h"

namespace ql {

Status LogicalKernel::init(const KernelInit& info) {
    const std::string& type = info.node.opType;
    mOp = type == "Or" ? Op::Or : type == "Xor" ? Op::Xor : type == "Not" ? Op::Not : Op::And;
    return Status::ok();
}

Status LogicalKernel::compute(KernelContext& ctx) {
    const size_t arity = mOp == Op::Not ? 1 : 2;
    for (size_t i = 0; i < arity; ++i) {
        if (!ctx.hasInput(i)) return ctx.fail("needs " + std::to_string(arity) + " input(s)");
        if (ctx.input(i).dtype() != DataType::Bool) return unsupportedType(ctx, ctx.input(i).dtype());
    }
    const Tensor& a = ctx.input(0);
    if (mOp == Op::Not) {
        Tensor& out = ctx.allocateOutput(0, DataType::Bool, a.shape());
        unaryMap(a.data<bool>(), out.data<bool>(), a.elementCount(), [](bool x) { return !x; });
        return Status::ok();
    }
    const Tensor& b = ctx.input(1);
    const Tensor* ins[] = {&a, &b};
    QL_ASSIGN_OR_RETURN(Shape shape, broadcastInputs(ctx, ins));
    Tensor& out = ctx.allocateOutput(0, DataType::Bool, shape);
    switch (mOp) {
        case Op::And:
            broadcastBinary<bool, bool>(a, b, out, [](bool x, bool y) { return x && y; });
            break;
        case Op::Or:
            broadcastBinary<bool, bool>(a, b, out, [](bool x, bool y) { return x || y; });
            break;
        default:
            broadcastBinary<bool, bool>(a, b, out, [](bool x, bool y) { return x != y; });
            break;
    }
    return Status::ok();
}

}  // namespace ql
