#include "core/exec/kernels/integer_convolution.h"

#include <algorithm>
#include <array>

#include "core/exec/kernels/integer_util.h"

namespace ql {

namespace {

constexpr size_t kAxes = 3;
using Axes = std::array<int64_t, kAxes>;

// The geometry lifted to 3 spatial axes (leading ones of size 1).
struct Lifted {
    Axes in{1, 1, 1}, kernel{1, 1, 1}, out{1, 1, 1}, stride{1, 1, 1}, dilation{1, 1, 1}, pad{0, 0, 0};
    int64_t inSize() const { return in[0] * in[1] * in[2]; }
    int64_t kernelSize() const { return kernel[0] * kernel[1] * kernel[2]; }
    int64_t outSize() const { return out[0] * out[1] * out[2]; }
};

Lifted lift(const Shape& x, const Shape& w, const ConvGeometry& g) {
    Lifted l;
    const size_t spatial = x.size() - 2, lead = kAxes - spatial;
    for (size_t i = 0; i < spatial; ++i) {
        l.in[lead + i] = x[2 + i];
        l.kernel[lead + i] = w[2 + i];
        l.out[lead + i] = g.outputShape[2 + i];
        l.stride[lead + i] = g.stride[i];
        l.dilation[lead + i] = g.dilation[i];
        l.pad[lead + i] = g.padBegin[i];
    }
    return l;
}

// Columns [rows = channels x kernel taps][count] of whole output rows starting at output row `firstRow` for one
// image's group of `channels` input channels starting at `plane`: per output row, the taps' input row (or zeros
// outside), then the run along the last axis, a plain copy between zero edges when the stride is 1.
void im2col(const float* plane, int64_t channels, const Lifted& l, int64_t firstRow, int64_t rows, float* col) {
    const int64_t taps = l.kernelSize(), width = l.out[2], count = rows * width;
#pragma omp parallel for schedule(static)
    for (int64_t row = 0; row < channels * taps; ++row) {
        const int64_t c = row / taps, tap = row % taps, k2 = tap % l.kernel[2], k1 = tap / l.kernel[2] % l.kernel[1],
                      k0 = tap / (l.kernel[2] * l.kernel[1]);
        const float* src = plane + c * l.inSize();
        for (int64_t r = 0; r < rows; ++r) {
            const int64_t o1 = (firstRow + r) % l.out[1], o0 = (firstRow + r) / l.out[1];
            const int64_t i0 = o0 * l.stride[0] - l.pad[0] + k0 * l.dilation[0],
                          i1 = o1 * l.stride[1] - l.pad[1] + k1 * l.dilation[1];
            float* dst = col + row * count + r * width;
            if (i0 < 0 || i0 >= l.in[0] || i1 < 0 || i1 >= l.in[1]) {
                std::fill(dst, dst + width, 0.0f);
                continue;
            }
            const float* line = src + (i0 * l.in[1] + i1) * l.in[2];
            const int64_t start = k2 * l.dilation[2] - l.pad[2], step = l.stride[2];
            for (int64_t o2 = 0; o2 < width; ++o2) {
                const int64_t i2 = o2 * step + start;
                dst[o2] = i2 >= 0 && i2 < l.in[2] ? line[i2] : 0.0f;
            }
        }
    }
}

}  // namespace

Result<Tensor> integerConvolution(const KernelContext& ctx, const ConvAttributes& attrs, const IntegerConvInputs& in) {
    if (in.x.rank() < 3 || in.x.rank() > 5) return ctx.fail("only 1-D to 3-D convolutions are supported");
    QL_ASSIGN_OR_RETURN(const ConvGeometry g, convGeometry(ctx, attrs, in.x.shape(), in.w.shape()));
    const Lifted l = lift(in.x.shape(), in.w.shape(), g);
    const int64_t batch = in.x.dim(0), channels = in.x.dim(1), outChannels = in.w.dim(0), groups = attrs.group;
    const int64_t groupIn = channels / groups, groupOut = outChannels / groups, rows = groupIn * l.kernelSize();
    std::vector<float> x = eightBitValues(in.x), w = eightBitValues(in.w);
    for (float& v : x) v -= static_cast<float>(in.xZero);
    for (int64_t m = 0; m < outChannels; ++m)
        for (int64_t r = 0; r < rows; ++r)
            w[static_cast<size_t>(m * rows + r)] -= static_cast<float>(in.wZero[static_cast<size_t>(m)]);
    Tensor y(DataType::Int32, g.outputShape);
    const int64_t outSize = l.outSize();
    // Tiles of whole output rows, their columns at most 16 MB.
    const int64_t outRows = l.out[0] * l.out[1], width = l.out[2];
    const int64_t tileRows =
        std::clamp<int64_t>((int64_t{1} << 22) / std::max<int64_t>(1, rows * width), 1, std::max<int64_t>(1, outRows));
    std::vector<float> col(static_cast<size_t>(rows * tileRows * width));
    std::vector<int32_t> result(static_cast<size_t>(groupOut * tileRows * width));
    for (int64_t n = 0; n < batch; ++n)
        for (int64_t grp = 0; grp < groups; ++grp)
            for (int64_t firstRow = 0; firstRow < outRows; firstRow += tileRows) {
                const int64_t tile = std::min(tileRows, outRows - firstRow), first = firstRow * width,
                              count = tile * width;
                im2col(x.data() + (n * channels + grp * groupIn) * l.inSize(), groupIn, l, firstRow, tile, col.data());
                exactGemm(w.data() + grp * groupOut * rows, col.data(), result.data(), groupOut, count, rows);
                for (int64_t m = 0; m < groupOut; ++m) {
                    const int64_t channel = grp * groupOut + m;
                    const int32_t bias = in.bias.empty() ? 0 : in.bias[static_cast<size_t>(channel)];
                    int32_t* dst = y.data<int32_t>() + (n * outChannels + channel) * outSize + first;
                    for (int64_t p = 0; p < count; ++p)
                        dst[p] =
                            static_cast<int32_t>(static_cast<uint32_t>(result[static_cast<size_t>(m * count + p)]) +
                                                 static_cast<uint32_t>(bias));
                }
            }
    return y;
}

}  // namespace ql
