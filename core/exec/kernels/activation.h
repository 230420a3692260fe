#pragma once
#include "core/exec/kernel.h"

namespace ql {

// Activations with attributes, on float/double/float16/bfloat16: Elu (alpha), Celu (alpha), LeakyRelu
// (alpha), HardSigmoid (alpha, beta), HardSwish, Selu (alpha, gamma), ThresholdedRelu (alpha), Gelu (opset 20:
// approximate "none" or "tanh"), Mish (opset 18), and the pre-opset-10 experimental ScaledTanh (alpha * tanh(beta x))
// and ParametricSoftplus (alpha * ln(1 + e^(beta x))), which TensorRT's parser still takes.
class ActivationKernel final : public Kernel {
public:
    enum class Op {
        Elu,
        Celu,
        LeakyRelu,
        HardSigmoid,
        HardSwish,
        Selu,
        ThresholdedRelu,
        Gelu,
        GeluTanh,
        Mish,
        ScaledTanh,
        ParametricSoftplus
    };
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    Op mOp = Op::Elu;
    float mAlpha = 0, mBeta = 0, mGamma = 0;
};

}  // namespace ql
