#include "core/exec/kernels/fast_swish.h"

#include <immintrin.h>

#include <cmath>

#include "core/exec/kernels/elementwise_util.h"

namespace ql {

namespace {

#define QL_AVX512 __attribute__((target("avx512f")))
// GCC 12's AVX-512 headers start some intrinsics from _mm512_undefined_*(), which it then reports.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"

// exp(x) as 2^n * p(r) with r = x - n ln2 (ln2 split in two for precision) and a degree-6 polynomial on
// |r| <= ln2 / 2 (Cephes' expf coefficients). x is clamped to [-87, 88], where exp stays finite and normal;
// the constant comes first in min/max, which return their second operand when one is NaN, so NaN stays NaN.
QL_AVX512 inline __m512 exp16(__m512 x) {
    x = _mm512_min_ps(_mm512_set1_ps(88.0f), _mm512_max_ps(_mm512_set1_ps(-87.0f), x));
    const __m512 n = _mm512_roundscale_ps(_mm512_mul_ps(x, _mm512_set1_ps(1.44269504088896341f)),
                                          _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    __m512 r = _mm512_fnmadd_ps(n, _mm512_set1_ps(0.693359375f), x);
    r = _mm512_fnmadd_ps(n, _mm512_set1_ps(-2.12194440e-4f), r);
    __m512 p = _mm512_set1_ps(1.9875691500e-4f);
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.3981999507e-3f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(8.3334519073e-3f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(4.1665795894e-2f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.6666665459e-1f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(5.0000001201e-1f));
    p = _mm512_fmadd_ps(p, _mm512_mul_ps(r, r), _mm512_add_ps(r, _mm512_set1_ps(1.0f)));
    return _mm512_scalef_ps(p, n);
}

QL_AVX512 inline __m512 sigmoid16(__m512 x) {
    const __m512 e = exp16(_mm512_sub_ps(_mm512_setzero_ps(), x));
    return _mm512_div_ps(_mm512_set1_ps(1.0f), _mm512_add_ps(_mm512_set1_ps(1.0f), e));
}

// x * sigmoid(x), rounded as the Sigmoid kernel's output times x (the Mul of an unfused SiLU) is: the fused and
// the node-by-node runs (the INT8 simulation's) then agree to the bit.
QL_AVX512 inline __m512 swish16(__m512 x) {
    return _mm512_mul_ps(x, sigmoid16(x));
}

QL_AVX512 void sigmoidRange(const float* x, float* y, int64_t count) {
    for (int64_t i = 0; i < count; i += 16) {
        const __mmask16 live = count - i >= 16 ? __mmask16(0xffff) : __mmask16((1u << (count - i)) - 1);
        _mm512_mask_storeu_ps(y + i, live, sigmoid16(_mm512_maskz_loadu_ps(live, x + i)));
    }
}

// Four independent vectors per step keep the FMA units busy through the exp's dependency chain.
QL_AVX512 void swishRange(float* data, int64_t count) {
    int64_t i = 0;
    for (; i + 64 <= count; i += 64) {
        __m512 v[4];
        for (int k = 0; k < 4; ++k) v[k] = _mm512_loadu_ps(data + i + 16 * k);
        for (int k = 0; k < 4; ++k) _mm512_storeu_ps(data + i + 16 * k, swish16(v[k]));
    }
    for (; i < count; i += 16) {
        const __mmask16 live = count - i >= 16 ? __mmask16(0xffff) : __mmask16((1u << (count - i)) - 1);
        _mm512_mask_storeu_ps(data + i, live, swish16(_mm512_maskz_loadu_ps(live, data + i)));
    }
}

#pragma GCC diagnostic pop
#undef QL_AVX512

}  // namespace

bool fastSwishAvailable() {
    static const bool has = __builtin_cpu_supports("avx512f");
    return has;
}

void sigmoidFloats(const float* x, float* y, int64_t count) {
    parallelFor(count, kElementwiseGrain,
                [&](int64_t begin, int64_t end) { sigmoidRange(x + begin, y + begin, end - begin); });
}

void swishInPlace(float* data, int64_t count) {
    parallelFor(count, kElementwiseGrain, [&](int64_t begin, int64_t end) { swishRange(data + begin, end - begin); });
}

}  // namespace ql
