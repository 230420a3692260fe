#include "core/exec/kernels/comparison.h"

#include "core/exec/kernels/elementwise_util.h"

namespace ql {

namespace {

template <typename T>
void run(ComparisonKernel::Op op, const Tensor& a, const Tensor& b, Tensor& out) {
    using Op = ComparisonKernel::Op;
    switch (op) {
        case Op::Equal:
            return broadcastBinary<T, bool>(a, b, out, [](T x, T y) { return x == y; });
        case Op::Greater:
            return broadcastBinary<T, bool>(a, b, out, [](T x, T y) { return x > y; });
        case Op::Less:
            return broadcastBinary<T, bool>(a, b, out, [](T x, T y) { return x < y; });
        case Op::GreaterOrEqual:
            return broadcastBinary<T, bool>(a, b, out, [](T x, T y) { return x >= y; });
        case Op::LessOrEqual:
            return broadcastBinary<T, bool>(a, b, out, [](T x, T y) { return x <= y; });
    }
}

}  // namespace

Status ComparisonKernel::init(const KernelInit& info) {
    const std::string& type = info.node.opType;
    mOp = type == "Greater"          ? Op::Greater
          : type == "Less"           ? Op::Less
          : type == "GreaterOrEqual" ? Op::GreaterOrEqual
          : type == "LessOrEqual"    ? Op::LessOrEqual
                                     : Op::Equal;
    return Status::ok();
}

Status ComparisonKernel::compute(KernelContext& ctx) {
    QL_ASSIGN_OR_RETURN(BinaryOperands operands, binaryOperands(ctx));
    const Tensor& a = operands.a;
    const Tensor& b = operands.b;
    const Shape& shape = operands.shape;
    const DataType dtype = ctx.input(0).dtype();  // the output type (a and b may be promoted to float)
    Tensor& out = ctx.allocateOutput(0, DataType::Bool, shape);
    const bool ok = visitComputeType(a.dtype(), [&](auto tag) { run<typename decltype(tag)::type>(mOp, a, b, out); });
    return ok ? Status::ok() : unsupportedType(ctx, dtype);
}

}  // namespace ql
