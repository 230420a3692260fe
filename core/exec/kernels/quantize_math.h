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

// Symmetric INT8 quantize-dequantize (zero point 0, [-128, 127]), as a QuantizeLinear/DequantizeLinear pair:
// bit for bit quantizeLevel(x, scale, 0, -128, 127) * scale, in a form the compiler vectorises (the simulation
// runs it on every activation an INT8 layer reads). Clamping before rounding gives the same level (the bounds are
// integers); adding and subtracting 1.5 * 2^23 rounds |v| <= 128 to the nearest integer, ties to even, in the
// default rounding mode, as nearbyint does (a level rounding to zero is +0, as nearbyint(x) + 0.0f is).
inline float fakeQuantizeInt8(float x, float scale) {
    constexpr float kRound = 12582912.0f;  // 1.5 * 2^23
    const float v = std::min(std::max(x / scale, -128.0f), 127.0f);
    return ((v + kRound) - kRound) * scale;
}

}  // namespace ql
