#pragma once
// Naive Conv / ConvTranspose for the kernel tests: direct loops over 1-3 spatial axes (lifted to 3 with
// leading size-1 axes), explicit pads. Used to check the oneDNN kernels at odd shapes.
#include <array>
#include <vector>

#include "core/exec/tensor.h"

namespace ql::test {

struct ConvCase {
    Shape x, w;  // Conv: W [M, C/g, k...]; ConvTranspose: W [C, M/g, k...]
    int64_t group = 1;
    Shape strides, dilations, padBegin, padEnd, outputPadding;  // per spatial axis
};

namespace detail {
using Axes = std::array<int64_t, 3>;
inline Axes lift(const Shape& v, size_t from, int64_t fill) {
    Axes a{fill, fill, fill};
    const size_t n = v.size() - from;
    for (size_t i = 0; i < n; ++i) a[3 - n + i] = v[from + i];
    return a;
}
inline Axes liftAttr(const Shape& v, size_t spatial, int64_t fill) {
    Axes a{fill, fill, fill};
    for (size_t i = 0; i < v.size(); ++i) a[3 - spatial + i] = v[i];
    return a;
}
inline int64_t at(const Axes& dims, int64_t a, int64_t b, int64_t c) {
    return (a * dims[1] + b) * dims[2] + c;
}
}  // namespace detail

// Returns the output values and sets `outShape`.
inline std::vector<float> referenceConv(const ConvCase& c, const std::vector<float>& x, const std::vector<float>& w,
                                        const std::vector<float>& bias, Shape& outShape, bool transposed) {
    using namespace detail;
    const size_t spatial = c.x.size() - 2;
    const Axes in = lift(c.x, 2, 1), k = lift(c.w, 2, 1), s = liftAttr(c.strides, spatial, 1),
               d = liftAttr(c.dilations, spatial, 1), pb = liftAttr(c.padBegin, spatial, 0),
               pe = liftAttr(c.padEnd, spatial, 0), op = liftAttr(c.outputPadding, spatial, 0);
    const int64_t n = c.x[0], channels = c.x[1], g = c.group, icg = channels / g;
    const int64_t m = transposed ? c.w[1] * g : c.w[0], ocg = m / g;
    Axes out{};
    for (size_t a = 0; a < 3; ++a)
        out[a] = transposed ? s[a] * (in[a] - 1) + op[a] + (k[a] - 1) * d[a] + 1 - pb[a] - pe[a]
                            : (in[a] + pb[a] + pe[a] - ((k[a] - 1) * d[a] + 1)) / s[a] + 1;
    outShape = {n, m};
    for (size_t a = 3 - spatial; a < 3; ++a) outShape.push_back(out[a]);
    const int64_t inSize = in[0] * in[1] * in[2], outSize = out[0] * out[1] * out[2], kSize = k[0] * k[1] * k[2];
    std::vector<float> y(static_cast<size_t>(n * m * outSize));
    for (int64_t b = 0; b < n; ++b)
        for (int64_t oc = 0; oc < m; ++oc)
            for (int64_t o = 0; o < outSize; ++o) y[(b * m + oc) * outSize + o] = bias.empty() ? 0.0f : bias[oc];
    for (int64_t b = 0; b < n; ++b)
        for (int64_t gi = 0; gi < g; ++gi)
            for (int64_t oc = 0; oc < ocg; ++oc)
                for (int64_t ic = 0; ic < icg; ++ic)
                    for (int64_t k0 = 0; k0 < k[0]; ++k0)
                        for (int64_t k1 = 0; k1 < k[1]; ++k1)
                            for (int64_t k2 = 0; k2 < k[2]; ++k2) {
                                const int64_t kk = at(k, k0, k1, k2);
                                const float wv = transposed ? w[((gi * icg + ic) * ocg + oc) * kSize + kk]
                                                            : w[((gi * ocg + oc) * icg + ic) * kSize + kk];
                                const float* xp = &x[(b * channels + gi * icg + ic) * inSize];
                                float* yp = &y[(b * m + gi * ocg + oc) * outSize];
                                const Axes kv{k0, k1, k2};
                                if (!transposed) {
                                    for (int64_t o0 = 0; o0 < out[0]; ++o0)
                                        for (int64_t o1 = 0; o1 < out[1]; ++o1)
                                            for (int64_t o2 = 0; o2 < out[2]; ++o2) {
                                                const Axes ov{o0, o1, o2};
                                                Axes iv{};
                                                bool inside = true;
                                                for (size_t a = 0; a < 3; ++a) {
                                                    iv[a] = ov[a] * s[a] - pb[a] + kv[a] * d[a];
                                                    inside = inside && iv[a] >= 0 && iv[a] < in[a];
                                                }
                                                if (inside)
                                                    yp[at(out, o0, o1, o2)] += wv * xp[at(in, iv[0], iv[1], iv[2])];
                                            }
                                } else {
                                    for (int64_t i0 = 0; i0 < in[0]; ++i0)
                                        for (int64_t i1 = 0; i1 < in[1]; ++i1)
                                            for (int64_t i2 = 0; i2 < in[2]; ++i2) {
                                                const Axes iv{i0, i1, i2};
                                                Axes ov{};
                                                bool inside = true;
                                                for (size_t a = 0; a < 3; ++a) {
                                                    ov[a] = iv[a] * s[a] + kv[a] * d[a] - pb[a];
                                                    inside = inside && ov[a] >= 0 && ov[a] < out[a];
                                                }
                                                if (inside)
                                                    yp[at(out, ov[0], ov[1], ov[2])] += wv * xp[at(in, i0, i1, i2)];
                                            }
                                }
                            }
    return y;
}

}  // namespace ql::test
