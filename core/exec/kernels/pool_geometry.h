#pragma once
// Window geometry shared by AveragePool and MaxPool: kernel_shape, strides, dilations, pads / auto_pad and
// ceil_mode, turned into output sizes and per-axis pads for a given input. 1-D and 2-D pools are handled
// as 3-D ones with leading spatial axes of size 1, so one loop nest serves all three.
#include <array>
#include <string>
#include <vector>

#include "core/exec/kernel.h"

namespace ql {

inline constexpr size_t kPoolAxes = 3;

struct PoolAttributes {
    std::vector<int64_t> kernel, strides, dilations, pads;  // pads: begins then ends
    std::string autoPad = "NOTSET";
    bool ceilMode = false;
};

Result<PoolAttributes> parsePoolAttributes(const KernelInit& info);

// One input's layout, in 3 spatial axes (leading ones padded with size 1).
struct PoolWindow {
    int64_t batch = 0, channels = 0;
    std::array<int64_t, kPoolAxes> in{}, out{}, kernel{}, stride{}, dilation{}, padBegin{}, padEnd{};
    Shape outputShape;  // in the input's real rank
    int64_t inSize() const { return in[0] * in[1] * in[2]; }
    int64_t outSize() const { return out[0] * out[1] * out[2]; }
};

Result<PoolWindow> poolWindow(const KernelContext& ctx, const PoolAttributes& attrs, const Shape& input);

// The kernel taps [first, last) along axis a for output position o: those that land inside [lo, hi).
inline std::pair<int64_t, int64_t> poolTaps(const PoolWindow& w, size_t a, int64_t o, int64_t lo, int64_t hi) {
    const int64_t start = o * w.stride[a] - w.padBegin[a], d = w.dilation[a];
    int64_t first = 0, last = w.kernel[a];
    if (start < lo) first = (lo - start + d - 1) / d;
    if (start + (last - 1) * d >= hi) last = hi - start <= 0 ? 0 : (hi - start + d - 1) / d;
    return {first, std::max(first, last)};
}

}  // namespace ql
