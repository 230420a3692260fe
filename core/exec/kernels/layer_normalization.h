#pragma once
#include <cstdint>

#include "core/exec/kernel.h"

namespace ql {

// Normalizes each of `rows` contiguous rows of `length` values to zero mean and unit variance,
// y = (x - mean) / sqrt(var + epsilon), then multiplies by scale[i] and adds bias[i] (per position in the
// row) when given. Writes each row's mean and 1/sqrt(var + epsilon) when asked.
template <typename T>
struct RowNormalization {
    const T* scale = nullptr;
    const T* bias = nullptr;
    T* means = nullptr;
    T* invStdDevs = nullptr;
};
template <typename T>
void normalizeRows(const T* x, T* y, int64_t rows, int64_t length, double epsilon,
                   const RowNormalization<T>& extra = {});

// LayerNormalization (opset 17): normalizes over the dims from `axis` (default -1) on, then applies Scale
// and optional B (broadcast to those dims). Optional outputs Mean and InvStdDev have the input's shape with
// the normalized dims set to 1. Computed in float (stash_type 1) or double for double inputs.
class LayerNormalizationKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    int64_t mAxis = -1;
    float mEpsilon = 1e-5f;
};

}  // namespace ql
