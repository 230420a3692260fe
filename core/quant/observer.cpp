#include "core/quant/observer.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "core/exec/layout.h"

namespace ql {

FiniteRange finiteRange(std::span<const float> values) {
    constexpr float kLargest = std::numeric_limits<float>::max();
    constexpr float kInf = std::numeric_limits<float>::infinity();
    // Eight independent lanes, branch-free, so the compiler maps them to vector min/max (a single
    // running min is a reduction it may not reorder). NaN fails both comparisons and never becomes an
    // extreme; Inf is caught by the count and handled below.
    constexpr size_t kLanes = 8;
    float lo[kLanes], hi[kLanes];
    int32_t bad[kLanes] = {};
    std::fill(lo, lo + kLanes, kInf);
    std::fill(hi, hi + kLanes, -kInf);
    int64_t nonFinite = 0;
    const float* v = values.data();
    const size_t n = values.size(), whole = n / kLanes * kLanes;
    for (size_t j = 0; j < whole; j += kLanes) {
        for (size_t w = 0; w < kLanes; ++w) {
            const float x = v[j + w];
            bad[w] += !(std::fabs(x) <= kLargest);
            lo[w] = x < lo[w] ? x : lo[w];
            hi[w] = x > hi[w] ? x : hi[w];
        }
        if ((j & 0xffffff) == 0)  // keep the 32-bit lane counts far from overflow
            for (int32_t& b : bad) nonFinite += std::exchange(b, 0);
    }
    for (size_t j = whole; j < n; ++j) {
        bad[0] += !(std::fabs(v[j]) <= kLargest);
        lo[0] = v[j] < lo[0] ? v[j] : lo[0];
        hi[0] = v[j] > hi[0] ? v[j] : hi[0];
    }
    float low = kInf, high = -kInf;
    for (size_t w = 0; w < kLanes; ++w) {
        nonFinite += bad[w];
        low = std::min(low, lo[w]);
        high = std::max(high, hi[w]);
    }
    if (nonFinite) {  // an Inf may have become an extreme: redo over the finite values only
        low = kInf, high = -kInf;
        for (float x : values) {
            if (!(std::fabs(x) <= kLargest)) continue;
            low = std::min(low, x);
            high = std::max(high, x);
        }
    }
    return {low, high, static_cast<int64_t>(n) - nonFinite, nonFinite};
}

void Observer::observe(const Tensor& tensor) {
    switch (tensor.dtype()) {
        case DataType::Float:
            if (tensor.isPlain()) {
                observeValues(tensor.span<float>());
            } else if (tensor.byteSize() == static_cast<size_t>(tensor.elementCount()) * sizeof(float)) {
                // A oneDNN layout without padding holds the same values in another order, which the
                // statistics do not see: no reorder needed.
                observeValues({tensor.data<float>(), static_cast<size_t>(tensor.elementCount())});
            } else {
                const Tensor plain = onednn::toPlain(tensor);
                observeValues(plain.span<float>());
            }
            return;
        case DataType::Float16:
        case DataType::BFloat16:
        case DataType::Double: {
            const std::vector<float> values = tensor.toFloats();
            observeValues(values);
            return;
        }
        default:
            return;
    }
}

}  // namespace ql
