#pragma once
// The arithmetic of ONNX QuantizeLinear, shared by the kernel and the INT8 simulator so that both round
// the same way.
#include <algorithm>
#include <cmath>

namespace ql {

// round_half_to_even(x / scale) + zero, saturated to [lo, hi], computed in float as the ONNX reference and
// ONNX Runtime do (ties must round the same way). The result is an integer-valued float.
inline float quantizeLevel(float x, float scale, float zero, float lo, float hi) {
    return std::clamp(std::nearbyint(x / scale) + zero, lo, hi);  // nearbyint: ties to even
}

// Symmetric INT8 quantize-dequantize (zero point 0, [-128, 127]), as a QuantizeLinear/DequantizeLinear pair.
inline float fakeQuantizeInt8(float x, float scale) {
    return quantizeLevel(x, scale, 0.0f, -128.0f, 127.0f) * scale;
}

}  // namespace ql
