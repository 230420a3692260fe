#include "core/exec/kernels/variadic.h"

#include <cmath>

#include "core/exec/kernels/elementwise_util.h"

namespace ql {

namespace {

using Op = VariadicKernel::Op;

template <typename T>
bool isNan(T v) {
    if constexpr (std::is_floating_point_v<T>) return std::isnan(v);
    return false;
}

// acc = op(acc, next), broadcasting both.
template <typename T>
Tensor combine(Op op, const Tensor& acc, const Tensor& next, const Shape& shape) {
    Tensor out(acc.dtype(), shape);
    switch (op) {
        case Op::Max:
            broadcastBinary<T, T>(acc, next, out, [](T a, T b) { return (a > b || isNan(a)) ? a : b; });
            break;
        case Op::Min:
            broadcastBinary<T, T>(acc, next, out, [](T a, T b) { return (a < b || isNan(a)) ? a : b; });
            break;
        default:
            broadcastBinary<T, T>(acc, next, out, [](T a, T b) { return wrapping(a, b, std::plus<>()); });
    }
    return out;
}

}  // namespace

Status VariadicKernel::init(const KernelInit& info) {
    const std::string& type = info.node.opType;
    mOp = type == "Max" ? Op::Max : type == "Min" ? Op::Min : type == "Mean" ? Op::Mean : Op::Sum;
    return Status::ok();
}

Status VariadicKernel::compute(KernelContext& ctx) {
    std::vector<Tensor> inputs;
    std::vector<const Tensor*> ptrs;
    for (size_t i = 0; i < ctx.inputCount(); ++i) {
        if (!ctx.hasInput(i)) return ctx.fail("input " + std::to_string(i) + " is missing");
        if (ctx.input(i).dtype() != ctx.input(0).dtype())
            return ctx.fail(std::string("inputs have different element types ") + dataTypeName(ctx.input(0).dtype()) +
                            " and " + dataTypeName(ctx.input(i).dtype()));
        inputs.push_back(promoteHalf(ctx.input(i)));
    }
    if (inputs.empty()) return ctx.fail("needs at least one input");
    for (const Tensor& t : inputs) ptrs.push_back(&t);
    QL_ASSIGN_OR_RETURN(Shape shape, broadcastInputs(ctx, ptrs));
    const DataType dtype = ctx.input(0).dtype();
    Tensor acc = inputs[0];
    bool ok = false;
    visitComputeType(acc.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (!std::is_same_v<T, bool>) {
            if (inputs.size() == 1) acc = inputs[0].clone();
            for (size_t i = 1; i < inputs.size(); ++i)
                acc = combine<T>(mOp, acc, inputs[i], *broadcastShapes(acc.shape(), inputs[i].shape()));
            if (mOp == Op::Mean) {
                const T n = static_cast<T>(inputs.size());
                unaryMap(acc.data<T>(), acc.data<T>(), acc.elementCount(), [n](T v) { return static_cast<T>(v / n); });
            }
            ok = true;
        }
    });
    if (!ok) return unsupportedType(ctx, dtype);
    setOutputAs(ctx, 0, std::move(acc), dtype);
    return Status::ok();
}

}  // namespace ql
