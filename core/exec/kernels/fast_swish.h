#pragma once
// Swish (x * sigmoid(x), the SiLU of EfficientNet) in place over float data with AVX-512. As a oneDNN 2.6
// convolution post-op it costs ~0.5 ns per value (its exp), as this separate pass over the convolution's output
// ~0.36 ns (EfficientNet-B0's 16->96 1x1 convolution at 112x112: 1.06 ms fused, 0.44 + 0.45 ms split). Only where
// the CPU has AVX-512; elsewhere the caller keeps oneDNN's post-op.
#include <cstdint>

namespace ql {

bool fastSwishAvailable();
// Relative error below 2e-7 against the exact function; NaN stays NaN. Splits the work over OpenMP threads.
void swishInPlace(float* data, int64_t count);
// The sigmoid swishInPlace multiplies by, for the Sigmoid kernel where fastSwishAvailable(): a fused
// Conv -> Sigmoid -> Mul then gives exactly what the three nodes give one by one. `x` may be `y`.
void sigmoidFloats(const float* x, float* y, int64_t count);

}  // namespace ql
