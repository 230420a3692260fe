#pragma once
// Naive references for the integer kernels' tests: 2-D integer convolution and requantization, element by element
// in int64 and double.
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql::test {

inline Tensor uint8s(Shape shape, const std::vector<uint8_t>& values) {
    return Tensor::fromVector(DataType::UInt8, std::move(shape), values);
}
inline Tensor int8s(Shape shape, const std::vector<int8_t>& values) {
    return Tensor::fromVector(DataType::Int8, std::move(shape), values);
}

// `count` seeded 8-bit values of `dtype` (full range).
inline Tensor randomEightBit(DataType dtype, Shape shape, uint32_t seed) {
    std::mt19937 gen(seed);
    std::uniform_int_distribution<int> dist(dtype == DataType::Int8 ? -128 : 0, dtype == DataType::Int8 ? 127 : 255);
    Tensor t(dtype, std::move(shape));
    for (int64_t i = 0; i < t.elementCount(); ++i) {
        if (dtype == DataType::Int8)
            t.data<int8_t>()[i] = static_cast<int8_t>(dist(gen));
        else
            t.data<uint8_t>()[i] = static_cast<uint8_t>(dist(gen));
    }
    return t;
}

struct Conv2dCase {
    int64_t n = 1, c = 4, h = 7, w = 6, m = 6, kh = 3, kw = 2, group = 2, stride = 2, pad = 1, dilation = 1;
    int64_t outH() const { return (h + 2 * pad - ((kh - 1) * dilation + 1)) / stride + 1; }
    int64_t outW() const { return (w + 2 * pad - ((kw - 1) * dilation + 1)) / stride + 1; }
};

// conv(x - xZero, w - wZero[m]) + bias[m] in int64.
inline std::vector<int64_t> referenceIntegerConv(const Conv2dCase& c, const Tensor& x, int64_t xZero, const Tensor& w,
                                                 const std::vector<int64_t>& wZero, const std::vector<int64_t>& bias) {
    const std::vector<float> xv = x.toFloats(), wv = w.toFloats();
    const int64_t cg = c.c / c.group, mg = c.m / c.group;
    std::vector<int64_t> y;
    for (int64_t n = 0; n < c.n; ++n)
        for (int64_t m = 0; m < c.m; ++m)
            for (int64_t oy = 0; oy < c.outH(); ++oy)
                for (int64_t ox = 0; ox < c.outW(); ++ox) {
                    int64_t acc = bias.empty() ? 0 : bias[static_cast<size_t>(m)];
                    for (int64_t ci = 0; ci < cg; ++ci)
                        for (int64_t ky = 0; ky < c.kh; ++ky)
                            for (int64_t kx = 0; kx < c.kw; ++kx) {
                                const int64_t iy = oy * c.stride - c.pad + ky * c.dilation,
                                              ix = ox * c.stride - c.pad + kx * c.dilation;
                                if (iy < 0 || iy >= c.h || ix < 0 || ix >= c.w) continue;
                                const int64_t channel = m / mg * cg + ci;
                                const auto xi = static_cast<size_t>(((n * c.c + channel) * c.h + iy) * c.w + ix);
                                const auto wi = static_cast<size_t>(((m * cg + ci) * c.kh + ky) * c.kw + kx);
                                acc += (static_cast<int64_t>(xv[xi]) - xZero) *
                                       (static_cast<int64_t>(wv[wi]) - wZero[static_cast<size_t>(m)]);
                            }
                    y.push_back(acc);
                }
    return y;
}

inline void setConv2dAttributes(NodeBuilder& node, const Conv2dCase& c) {
    node.ints("kernel_shape", {c.kh, c.kw})
        .ints("strides", {c.stride, c.stride})
        .ints("pads", {c.pad, c.pad, c.pad, c.pad})
        .ints("dilations", {c.dilation, c.dilation})
        .i("group", c.group);
}

// clamp(round_half_even(acc * multiplier) + zero) as ONNX Runtime requantizes (float multiplier).
inline int64_t referenceRequantize(int64_t acc, float multiplier, int64_t zero, int64_t lo, int64_t hi) {
    const float v = std::nearbyint(static_cast<float>(acc) * multiplier) + static_cast<float>(zero);
    return std::clamp<int64_t>(static_cast<int64_t>(v), lo, hi);
}

}  // namespace ql::test
