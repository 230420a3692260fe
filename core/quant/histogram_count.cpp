#include "core/quant/histogram_count.h"

#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ql {
namespace {

constexpr float kLargest = std::numeric_limits<float>::max();
constexpr float kInf = std::numeric_limits<float>::infinity();
// Values are binned a block at a time into an index buffer that stays in L1, then counted.
constexpr size_t kBlock = 1024;

// The counting half: spread over the ways (see kCountWays).
inline void countIndices(const int32_t* index, size_t n, uint32_t* sub, size_t stride) {
    size_t j = 0;
    for (; j + kCountWays <= n; j += kCountWays)
        for (size_t w = 0; w < kCountWays; ++w) ++sub[w * stride + static_cast<size_t>(index[j + w])];
    for (; j < n; ++j) ++sub[static_cast<size_t>(index[j])];
}

inline void merge(FiniteRange& seen, const FiniteRange& r) {
    seen = {std::min(seen.min, r.min), std::max(seen.max, r.max), seen.finite + r.finite, seen.nonFinite + r.nonFinite};
}

// Portable version: the block's extremes by finiteRange, then its bin indices by a loop the compiler
// vectorises for whatever the build targets.
bool countGeneric(std::span<const float> values, const BinMap& map, uint32_t* sub, size_t stride, FiniteRange& seen) {
    alignas(64) int32_t index[kBlock];
    for (size_t first = 0; first < values.size(); first += kBlock) {
        const size_t n = std::min(kBlock, values.size() - first);
        const float* v = values.data() + first;
        const FiniteRange r = finiteRange({v, n});
        if (r.finite && std::max(std::fabs(r.min), std::fabs(r.max)) > map.range) return false;
        merge(seen, r);
        size_t m = 0;
        for (size_t j = 0; j < n; ++j) {
            const float magnitude = std::fabs(v[j]);
            const bool finite = magnitude <= kLargest;
            const int32_t k = std::min(static_cast<int32_t>((finite ? magnitude : 0.0f) * map.perBin), map.lastBin);
            index[m] = map.absolute || !(v[j] < 0.0f) ? map.zero + k : map.zero - 1 - k;
            m += finite;
        }
        countIndices(index, m, sub, stride);
    }
    return true;
}

// GCC 12's AVX-512 headers start some intrinsics from _mm512_undefined_*(), which it then reports.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
// AVX-512 version, 16 values per step: extremes, range check and bin index in one pass over the block.
// Values in the zero bin (the exact zeros after ReLU, often half a tensor) are counted by popcount and
// left out of the index buffer, as are non-finite values; the rest are compress-stored for counting.
__attribute__((target("avx512f,avx512dq,avx512bw,avx512vl"))) bool countAvx512(std::span<const float> values,
                                                                               const BinMap& map, uint32_t* sub,
                                                                               size_t stride, FiniteRange& seen) {
    const __m512 perBin = _mm512_set1_ps(map.perBin), range = _mm512_set1_ps(map.range);
    const __m512 largest = _mm512_set1_ps(kLargest), zeroF = _mm512_setzero_ps();
    const __m512i zero = _mm512_set1_epi32(map.zero), belowZero = _mm512_set1_epi32(map.zero - 1);
    const __m512i lastBin = _mm512_set1_epi32(map.lastBin), absMask = _mm512_set1_epi32(0x7fffffff);
    __m512 lo = _mm512_set1_ps(kInf), hi = _mm512_set1_ps(-kInf);
    int64_t nonFinite = 0;
    uint64_t zeroBin = 0;
    alignas(64) int32_t index[kBlock];
    for (size_t first = 0; first < values.size(); first += kBlock) {
        const size_t n = std::min(kBlock, values.size() - first);
        const float* v = values.data() + first;
        __mmask16 over = 0;
        size_t m = 0;
        uint32_t inZeroBin = 0, bad = 0;
        __m512 blockLo = lo, blockHi = hi;
        for (size_t j = 0; j < n; j += 16) {
            const __mmask16 live = n - j >= 16 ? __mmask16(0xffff) : __mmask16((1u << (n - j)) - 1);
            const __m512 x = _mm512_maskz_loadu_ps(live, v + j);
            const __m512 a = _mm512_castsi512_ps(_mm512_and_si512(_mm512_castps_si512(x), absMask));
            const __mmask16 finite = _mm512_mask_cmp_ps_mask(live, a, largest, _CMP_LE_OQ);
            over |= _mm512_mask_cmp_ps_mask(finite, a, range, _CMP_GT_OQ);
            blockLo = _mm512_mask_min_ps(blockLo, finite, x, blockLo);
            blockHi = _mm512_mask_max_ps(blockHi, finite, x, blockHi);
            bad += static_cast<uint32_t>(__builtin_popcount(live & ~finite));
            // Truncation toward zero as the scalar cast; non-finite lanes give garbage that is never stored.
            const __m512i k = _mm512_min_epi32(_mm512_cvttps_epi32(_mm512_mul_ps(a, perBin)), lastBin);
            const __mmask16 negative = map.absolute ? __mmask16(0) : _mm512_cmp_ps_mask(x, zeroF, _CMP_LT_OQ);
            const __m512i bin =
                _mm512_mask_sub_epi32(_mm512_add_epi32(zero, k), negative, belowZero, k);  // zero - 1 - k
            const __mmask16 atZero = _mm512_mask_cmpeq_epi32_mask(finite, bin, zero);
            inZeroBin += static_cast<uint32_t>(__builtin_popcount(atZero));
            const __mmask16 keep = finite & ~atZero;
            _mm512_mask_compressstoreu_epi32(index + m, keep, bin);
            m += static_cast<size_t>(__builtin_popcount(keep));
        }
        if (over) break;  // nothing of this block counted; the caller widens and starts again
        lo = blockLo;
        hi = blockHi;
        nonFinite += bad;
        zeroBin += inZeroBin;
        countIndices(index, m, sub, stride);
        if (first + kBlock >= values.size()) {
            sub[static_cast<size_t>(map.zero)] += static_cast<uint32_t>(zeroBin);
            const auto count = static_cast<int64_t>(values.size());
            merge(seen, {_mm512_reduce_min_ps(lo), _mm512_reduce_max_ps(hi), count - nonFinite, nonFinite});
            return true;
        }
    }
    return values.empty();
}
#pragma GCC diagnostic pop

bool hasAvx512() {
    static const bool has = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
                            __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl");
    return has;
}

}  // namespace

BinMap::BinMap(double range, size_t bins, bool absolute) : absolute(absolute) {
    const size_t side = absolute ? bins : bins / 2;  // bins per sign
    zero = static_cast<int32_t>(absolute ? 0 : side);
    lastBin = static_cast<int32_t>(side - 1);
    // Clamped so that 0 * perBin stays 0 when a denormal range would make it infinite.
    perBin = range > 0.0 ? static_cast<float>(std::min(static_cast<double>(side) / range, double{kLargest})) : 0.0f;
    // Exact: the range is a float magnitude times a power of two, or beyond the float range.
    this->range = range > kLargest ? kInf : static_cast<float>(range);
}

int32_t BinMap::binOf(float x) const {
    const int32_t k = std::min(static_cast<int32_t>(std::fabs(x) * perBin), lastBin);
    return absolute || !(x < 0.0f) ? zero + k : zero - 1 - k;
}

std::pair<size_t, size_t> BinMap::binsBetween(float min, float max) const {
    // Signed bins are monotonic in x; absolute ones in |x|, from the zero bin when the signs differ.
    if (!absolute) return {static_cast<size_t>(binOf(min)), static_cast<size_t>(binOf(max)) + 1};
    const float low = min <= 0.0f && max >= 0.0f ? 0.0f : std::min(std::fabs(min), std::fabs(max));
    return {static_cast<size_t>(binOf(low)), static_cast<size_t>(binOf(std::max(std::fabs(min), std::fabs(max)))) + 1};
}

bool countValuesPortable(std::span<const float> values, const BinMap& map, uint32_t* sub, size_t stride,
                         FiniteRange& seen) {
    return countGeneric(values, map, sub, stride, seen);
}

bool countValues(std::span<const float> values, const BinMap& map, uint32_t* sub, size_t stride, FiniteRange& seen) {
    return hasAvx512() ? countAvx512(values, map, sub, stride, seen) : countGeneric(values, map, sub, stride, seen);
}

}  // namespace ql
