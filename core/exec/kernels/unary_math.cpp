#include "core/exec/kernels/unary_math.h"

#include <Eigen/Core>
#include <unsupported/Eigen/SpecialFunctions>
#include <utility>

#include "core/common/target_clones.h"
#include "core/exec/kernels/elementwise_util.h"
#include "core/exec/kernels/fast_swish.h"

namespace ql {

namespace {

using Op = UnaryMathKernel::Op;

constexpr std::pair<std::string_view, Op> kOps[] = {
    {"Abs", Op::Abs},           {"Neg", Op::Neg},           {"Sign", Op::Sign},
    {"Relu", Op::Relu},         {"Ceil", Op::Ceil},         {"Floor", Op::Floor},
    {"Round", Op::Round},       {"Sqrt", Op::Sqrt},         {"Exp", Op::Exp},
    {"Log", Op::Log},           {"Sin", Op::Sin},           {"Cos", Op::Cos},
    {"Tan", Op::Tan},           {"Asin", Op::Asin},         {"Acos", Op::Acos},
    {"Atan", Op::Atan},         {"Sinh", Op::Sinh},         {"Cosh", Op::Cosh},
    {"Asinh", Op::Asinh},       {"Acosh", Op::Acosh},       {"Atanh", Op::Atanh},
    {"Tanh", Op::Tanh},         {"Sigmoid", Op::Sigmoid},   {"Erf", Op::Erf},
    {"Softplus", Op::Softplus}, {"Softsign", Op::Softsign}, {"Reciprocal", Op::Reciprocal},
};

template <typename In, typename Out>
void applyFloat(Op op, const In& x, Out y) {
    using T = typename In::Scalar;
    switch (op) {
        case Op::Abs:
            y = x.abs();
            break;
        case Op::Neg:
            y = -x;
            break;
        case Op::Sign:
            y = x.sign();
            break;
        case Op::Relu:
            y = x.max(T(0));
            break;
        case Op::Ceil:
            y = x.ceil();
            break;
        case Op::Floor:
            y = x.floor();
            break;
        case Op::Round:
            y = x.rint();
            break;  // round half to even in the default rounding mode
        case Op::Sqrt:
            y = x.sqrt();
            break;
        case Op::Reciprocal:
            y = x.inverse();
            break;
        case Op::Exp:
            y = x.exp();
            break;
        case Op::Log:
            y = x.log();
            break;
        case Op::Sin:
            y = x.sin();
            break;
        case Op::Cos:
            y = x.cos();
            break;
        case Op::Tan:
            y = x.tan();
            break;
        case Op::Asin:
            y = x.asin();
            break;
        case Op::Acos:
            y = x.acos();
            break;
        case Op::Atan:
            y = x.atan();
            break;
        case Op::Sinh:
            y = x.sinh();
            break;
        case Op::Cosh:
            y = x.cosh();
            break;
        case Op::Asinh:
            y = x.asinh();
            break;
        case Op::Acosh:
            y = x.acosh();
            break;
        case Op::Atanh:
            y = x.atanh();
            break;
        case Op::Tanh:
            y = x.tanh();
            break;
        case Op::Sigmoid:
            y = x.logistic();
            break;
        case Op::Erf:
            y = x.erf();
            break;
        // log(1 + e^x) without overflow for large x.
        case Op::Softplus:
            y = x.max(T(0)) + (-x.abs()).exp().log1p();
            break;
        case Op::Softsign:
            y = x / (T(1) + x.abs());
            break;
    }
}

template <typename T>
void computeFloat(Op op, const T* x, T* y, int64_t n) {
    using Array = Eigen::Array<T, Eigen::Dynamic, 1>;
    // The sigmoid a fused Conv -> Sigmoid -> Mul multiplies by (fast_swish.h), so that run and the three nodes
    // run one by one (the INT8 simulation splits such groups) agree to the bit.
    if constexpr (std::is_same_v<T, float>)
        if (op == Op::Sigmoid && fastSwishAvailable()) return sigmoidFloats(x, y, n);
    parallelFor(n, kElementwiseGrain, [&](int64_t begin, int64_t end) {
        if constexpr (std::is_same_v<T, float>)
            if (op == Op::Erf) return erfFloat(x + begin, y + begin, end - begin);
        applyFloat(op, Eigen::Map<const Array>(x + begin, end - begin), Eigen::Map<Array>(y + begin, end - begin));
    });
}

// The ops defined on integers; false for the others.
template <typename T>
bool computeInteger(Op op, const T* x, T* y, int64_t n) {
    auto negate = [](T v) { return static_cast<T>(0 - static_cast<uint64_t>(v)); };  // wraps like numpy
    switch (op) {
        case Op::Abs:
            unaryMap(x, y, n, [&](T v) { return v < T(0) ? negate(v) : v; });
            return true;
        case Op::Neg:
            unaryMap(x, y, n, negate);
            return true;
        case Op::Sign:
            unaryMap(x, y, n, [](T v) { return static_cast<T>((T(0) < v) - (v < T(0))); });
            return true;
        case Op::Relu:
            unaryMap(x, y, n, [](T v) { return v > T(0) ? v : T(0); });
            return true;
        default:
            return false;
    }
}

}  // namespace

// Eigen's float erf (an odd rational approximation on [-4, 4], +-1 beyond), as a plain loop the compiler
// vectorises for AVX-512 / AVX2 as well as the baseline: the library is built for baseline x86-64, so Eigen's
// own packets are SSE2 only, and GELU's Erf is a visible share of a transformer's run.
QL_TARGET_CLONES("avx512f", "avx2", "default") void erfFloat(const float* x, float* y, int64_t n) {
    constexpr float a1 = -1.60960333262415e-02f, a3 = -2.95459980854025e-03f, a5 = -7.34990630326855e-04f,
                    a7 = -5.69250639462346e-05f, a9 = -2.10102402082508e-06f, a11 = 2.77068142495902e-08f,
                    a13 = -2.72614225801306e-10f;
    constexpr float b0 = -1.42647390514189e-02f, b2 = -7.37332916720468e-03f, b4 = -1.68282697438203e-03f,
                    b6 = -2.13374055278905e-04f, b8 = -1.45660718464996e-05f;
    for (int64_t i = 0; i < n; ++i) {
        const float v = x[i] < -4.0f ? -4.0f : (x[i] > 4.0f ? 4.0f : x[i]);  // NaN stays NaN
        const float v2 = v * v;
        const float p = v * (((((((a13 * v2 + a11) * v2 + a9) * v2 + a7) * v2 + a5) * v2 + a3) * v2) + a1);
        const float q = (((b8 * v2 + b6) * v2 + b4) * v2 + b2) * v2 + b0;
        y[i] = p / q;
    }
}

Status UnaryMathKernel::init(const KernelInit& info) {
    for (const auto& [name, op] : kOps)
        if (name == info.node.opType) {
            mOp = op;
            return Status::ok();
        }
    return info.fail("is not an elementwise math op");
}

Status UnaryMathKernel::compute(KernelContext& ctx) {
    if (!ctx.hasInput(0)) return ctx.fail("needs an input");
    const DataType dtype = ctx.input(0).dtype();
    const Tensor x = promoteHalf(ctx.input(0));
    Tensor y(x.dtype(), x.shape());
    bool ok = false;
    visitComputeType(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_floating_point_v<T>) {
            computeFloat(mOp, x.data<T>(), y.data<T>(), x.elementCount());
            ok = true;
        } else if constexpr (!std::is_same_v<T, bool>) {
            ok = computeInteger(mOp, x.data<T>(), y.data<T>(), x.elementCount());
        }
    });
    if (!ok) return unsupportedType(ctx, dtype);
    setOutputAs(ctx, 0, std::move(y), dtype);
    return Status::ok();
}

}  // namespace ql
