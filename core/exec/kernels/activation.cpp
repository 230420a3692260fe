#include "core/exec/kernels/activation.h"

#include <Eigen/Core>
#include <unsupported/Eigen/SpecialFunctions>
#include <utility>

#include "core/exec/kernels/elementwise_util.h"

namespace ql {

namespace {

using Op = ActivationKernel::Op;

// Op and its default alpha and beta (ONNX defaults; 1 for the experimental ops, which have none).
struct ActivationInfo {
    std::string_view name;
    Op op;
    float alpha;
    float beta = 0.5f;
};
constexpr ActivationInfo kOps[] = {
    {"Elu", Op::Elu, 1.0f},
    {"Celu", Op::Celu, 1.0f},
    {"LeakyRelu", Op::LeakyRelu, 0.01f},
    {"HardSigmoid", Op::HardSigmoid, 0.2f},
    {"HardSwish", Op::HardSwish, 0.0f},
    {"Selu", Op::Selu, 1.67326319217681884765625f},
    {"ThresholdedRelu", Op::ThresholdedRelu, 1.0f},
    {"Gelu", Op::Gelu, 0.0f},
    {"Mish", Op::Mish, 0.0f},
    {"ScaledTanh", Op::ScaledTanh, 1.0f, 1.0f},
    {"ParametricSoftplus", Op::ParametricSoftplus, 1.0f, 1.0f},
};

// log(1 + e^v) without overflow for large v.
template <typename In>
auto softplus(const In& v) {
    using T = typename In::Scalar;
    return (v > T(20)).select(v, (T(1) + v.exp()).log());
}

template <typename In, typename Out>
void apply(Op op, const In& x, Out y, typename In::Scalar alpha, typename In::Scalar beta, typename In::Scalar gamma) {
    using T = typename In::Scalar;
    switch (op) {
        case Op::Elu:
            y = (x >= T(0)).select(x, alpha * (x.exp() - T(1)));
            break;
        case Op::Celu:
            y = x.max(T(0)) + (alpha * ((x / alpha).exp() - T(1))).min(T(0));
            break;
        case Op::LeakyRelu:
            y = (x >= T(0)).select(x, alpha * x);
            break;
        case Op::HardSigmoid:
            y = (alpha * x + beta).max(T(0)).min(T(1));
            break;
        case Op::HardSwish:
            y = x * (x / T(6) + T(0.5)).max(T(0)).min(T(1));
            break;
        case Op::Selu:
            y = gamma * (x > T(0)).select(x, alpha * (x.exp() - T(1)));
            break;
        case Op::ThresholdedRelu:
            y = (x > alpha).select(x, T(0));
            break;
        case Op::Gelu:
            y = T(0.5) * x * (T(1) + (x * T(0.70710678118654752440)).erf());
            break;
        case Op::GeluTanh:
            y = T(0.5) * x * (T(1) + (T(0.79788456080286535588) * (x + T(0.044715) * x.cube())).tanh());
            break;
        case Op::Mish:
            y = x * softplus(x).tanh();
            break;
        case Op::ScaledTanh:
            y = alpha * (beta * x).tanh();
            break;
        case Op::ParametricSoftplus:
            y = alpha * softplus((beta * x).eval());
            break;
    }
}

template <typename T>
void computeActivation(Op op, const T* x, T* y, int64_t n, float alpha, float beta, float gamma) {
    using Array = Eigen::Array<T, Eigen::Dynamic, 1>;
    parallelFor(n, kElementwiseGrain, [&](int64_t begin, int64_t end) {
        apply(op, Eigen::Map<const Array>(x + begin, end - begin), Eigen::Map<Array>(y + begin, end - begin), T(alpha),
              T(beta), T(gamma));
    });
}

}  // namespace

Status ActivationKernel::init(const KernelInit& info) {
    const Node& node = info.node;
    for (const ActivationInfo& a : kOps)
        if (a.name == node.opType) {
            mOp = a.op;
            mAlpha = node.floatAttribute("alpha", a.alpha);
            mBeta = node.floatAttribute("beta", a.beta);
            mGamma = node.floatAttribute("gamma", 1.05070102214813232421875f);
            if (mOp == Op::Celu && mAlpha == 0.0f) return info.fail("alpha must not be 0");
            if (mOp == Op::Gelu) {
                const std::string approximate = node.stringAttribute("approximate", "none");
                if (approximate != "none" && approximate != "tanh")
                    return info.fail("approximate must be \"none\" or \"tanh\", not \"" + approximate + "\"");
                if (approximate == "tanh") mOp = Op::GeluTanh;
            }
            return Status::ok();
        }
    return info.fail("is not an activation op");
}

Status ActivationKernel::compute(KernelContext& ctx) {
    if (!ctx.hasInput(0)) return ctx.fail("needs an input");
    const DataType dtype = ctx.input(0).dtype();
    const Tensor x = promoteHalf(ctx.input(0));
    Tensor y(x.dtype(), x.shape());
    const bool ok = visitFloating(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        computeActivation(mOp, x.data<T>(), y.data<T>(), x.elementCount(), mAlpha, mBeta, mGamma);
    });
    if (!ok) return unsupportedType(ctx, dtype);
    setOutputAs(ctx, 0, std::move(y), dtype);
    return Status::ok();
}

}  // namespace ql
