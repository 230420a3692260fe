#pragma once
// IEEE-754 half and bfloat16 conversions (round to nearest even), bit-exact with numpy.
#include <bit>
#include <cstdint>
#include <cstring>

namespace ql {

inline float halfToFloat(uint16_t h) {
    const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    const uint32_t exponent = (h >> 10) & 0x1fu;
    uint32_t mantissa = h & 0x3ffu;
    uint32_t bits;
    if (exponent == 0) {
        if (mantissa == 0) {
            bits = sign;
        } else {  // subnormal: normalise
            int e = -1;
            do {
                ++e;
                mantissa <<= 1;
            } while ((mantissa & 0x400u) == 0);
            bits = sign | (static_cast<uint32_t>(127 - 15 - e) << 23) | ((mantissa & 0x3ffu) << 13);
        }
    } else if (exponent == 0x1f) {
        bits = sign | 0x7f800000u | (mantissa << 13);
    } else {
        bits = sign | ((exponent + 127 - 15) << 23) | (mantissa << 13);
    }
    return std::bit_cast<float>(bits);
}

inline uint16_t floatToHalf(float f) {
    const uint32_t x = std::bit_cast<uint32_t>(f);
    const uint32_t sign = (x >> 16) & 0x8000u;
    const uint32_t absx = x & 0x7fffffffu;
    if (absx >= 0x7f800000u) {  // Inf or NaN
        return static_cast<uint16_t>(sign | 0x7c00u | (absx > 0x7f800000u ? 0x200u : 0u));
    }
    if (absx >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // rounds to Inf
    if (absx < 0x38800000u) {  // subnormal half or zero: add 0.5 so the FPU rounds to nearest even
        const float magic = std::bit_cast<float>(0x3f000000u);  // 0.5f
        const float r = std::bit_cast<float>(absx) + magic;
        return static_cast<uint16_t>(sign | (std::bit_cast<uint32_t>(r) - 0x3f000000u));
    }
    const uint32_t mantOdd = (absx >> 13) & 1u;
    uint32_t v = absx + 0xc8000fffu + mantOdd;  // rebias exponent (-112 << 23) and round to nearest even
    return static_cast<uint16_t>(sign | (v >> 13));
}

inline float bfloat16ToFloat(uint16_t b) {
    return std::bit_cast<float>(static_cast<uint32_t>(b) << 16);
}

inline uint16_t floatToBfloat16(float f) {
    uint32_t x = std::bit_cast<uint32_t>(f);
    if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((x >> 16) | 0x40u);  // quiet NaN
    x += 0x7fffu + ((x >> 16) & 1u);
    return static_cast<uint16_t>(x >> 16);
}

}  // namespace ql
