#pragma once
#include <cstdint>
#include <random>

#include "core/exec/kernel.h"

namespace ql {

// RandomUniform, RandomNormal (opsets 1, 22: shape attribute) and RandomUniformLike, RandomNormalLike (opsets 1, 22:
// the input's shape and, by default, its type): uniform in [low, high) or normal (mean, scale) values of dtype
// (float, double, float16, bfloat16). A `seed` attribute makes every run of a node give the same values; without
// one each run draws new ones. The values are this generator's (std::mt19937), not numpy's or ONNX Runtime's.
class RandomKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    bool mNormal = false, mLike = false, mHasDtype = false, mHasSeed = false;
    float mLow = 0.0f, mHigh = 1.0f;  // or mean and scale
    uint32_t mSeed = 0;
    DataType mDtype = DataType::Float;
    Shape mShape;
    std::mt19937 mEngine;
};

}  // namespace ql
