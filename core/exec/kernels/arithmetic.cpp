#include "core/exec/kernels/arithmetic.h"

#include "core/exec/kernels/elementwise_util.h"

namespace ql {

namespace {

template <typename T>
T divide(T a, T b) {
    if constexpr (std::is_integral_v<T>) {
        if (b == 0) return 0;  // undefined in ONNX; never trap
        if constexpr (std::is_signed_v<T>)
            if (b == -1) return static_cast<T>(0 - static_cast<uint64_t>(a));  // INT_MIN / -1 wraps
    }
    return static_cast<T>(a / b);
}

template <typename T>
void run(ArithmeticKernel::Op op, const Tensor& a, const Tensor& b, Tensor& out) {
    switch (op) {
        case ArithmeticKernel::Op::Add:
            return broadcastBinary<T, T>(a, b, out, [](T x, T y) { return wrapping(x, y, std::plus<>()); });
        case ArithmeticKernel::Op::Sub:
            return broadcastBinary<T, T>(a, b, out, [](T x, T y) { return wrapping(x, y, std::minus<>()); });
        case ArithmeticKernel::Op::Mul:
            return broadcastBinary<T, T>(a, b, out, [](T x, T y) { return wrapping(x, y, std::multiplies<>()); });
        case ArithmeticKernel::Op::Div:
            return broadcastBinary<T, T>(a, b, out, [](T x, T y) { return divide(x, y); });
    }
}

}  // namespace

Status ArithmeticKernel::init(const KernelInit& info) {
    const std::string& type = info.node.opType;
    mOp = type == "Sub" ? Op::Sub : type == "Mul" ? Op::Mul : type == "Div" ? Op::Div : Op::Add;
    return Status::ok();
}

Status ArithmeticKernel::compute(KernelContext& ctx) {
    if (!hasLayoutInput(ctx) && !worthOneDnn(ctx)) return computePlain(ctx);
    if (auto y = computeInLayout(ctx)) {
        ctx.setOutput(0, std::move(*y));
        return Status::ok();
    }
    return computeOnPlain(ctx, [this](KernelContext& plain) { return computePlain(plain); });
}

// Large float operands: oneDNN's binary is JIT-compiled for the host's vector width (our loops are built for
// baseline x86-64), and covers the broadcasts of bias adds and per-row scales (ViT's LayerNormalization ops).
bool ArithmeticKernel::worthOneDnn(const KernelContext& ctx) {
    constexpr int64_t kMinElements = 4096;  // below this, creating the primitive costs more than it saves
    if (ctx.inputCount() != 2 || !ctx.hasInput(0) || !ctx.hasInput(1)) return false;
    const Tensor& a = ctx.input(0);
    const Tensor& b = ctx.input(1);
    return a.dtype() == DataType::Float && b.dtype() == DataType::Float &&
           std::max(a.elementCount(), b.elementCount()) >= kMinElements;
}

std::optional<Tensor> ArithmeticKernel::computeInLayout(const KernelContext& ctx) const {
    using alg = dnnl::algorithm;
    if (ctx.inputCount() != 2 || !ctx.hasInput(0) || !ctx.hasInput(1)) return std::nullopt;
    const Tensor& a = ctx.input(0);
    const Tensor& b = ctx.input(1);
    const alg op = mOp == Op::Add   ? alg::binary_add
                   : mOp == Op::Sub ? alg::binary_sub
                   : mOp == Op::Mul ? alg::binary_mul
                                    : alg::binary_div;
    if (auto y = onednn::binaryInLayout(op, a, b, mKeepLayout, mBinary)) return y;
    if (mOp == Op::Add || mOp == Op::Mul) return onednn::binaryInLayout(op, b, a, mKeepLayout, mBinary);
    return std::nullopt;
}

Status ArithmeticKernel::computePlain(KernelContext& ctx) const {
    QL_ASSIGN_OR_RETURN(BinaryOperands operands, binaryOperands(ctx));
    const Tensor& a = operands.a;
    const Tensor& b = operands.b;
    const Shape& shape = operands.shape;
    const DataType dtype = ctx.input(0).dtype();  // the output type (a and b may be promoted to float)
    Tensor out(a.dtype(), shape);
    const bool ok = a.dtype() != DataType::Bool && visitComputeType(a.dtype(), [&](auto tag) {
                        using T = typename decltype(tag)::type;
                        if constexpr (!std::is_same_v<T, bool>) run<T>(mOp, a, b, out);
                    });
    if (!ok) return unsupportedType(ctx, dtype);
    setOutputAs(ctx, 0, std::move(out), dtype);
    return Status::ok();
}

}  // namespace ql
