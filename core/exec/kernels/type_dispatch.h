#pragma once
// Calling a generic lambda with the C++ type of a dtype, for the shape kernels that compare or combine
// values (TopK, Range, Scatter reductions, OneHot...). Float16 and BFloat16 are passed as their storage
// type wrapped in Half / BFloat16 tags so callers can convert through float.
#include <cstdint>
#include <type_traits>

#include "core/common/half.h"
#include "core/model/data_type.h"

namespace ql {

// A 16-bit float element; arithmetic goes through float.
struct Half16 {
    uint16_t bits;
};
struct BFloat16Bits {
    uint16_t bits;
};

template <typename T>
inline float elementToFloat(T v) {
    if constexpr (std::is_same_v<T, Half16>)
        return halfToFloat(v.bits);
    else if constexpr (std::is_same_v<T, BFloat16Bits>)
        return bfloat16ToFloat(v.bits);
    else
        return static_cast<float>(v);
}

// The value compared / accumulated for an element: itself, or float for 16-bit floats.
template <typename T>
struct ArithmeticOf {
    using type = T;
};
template <>
struct ArithmeticOf<Half16> {
    using type = float;
};
template <>
struct ArithmeticOf<BFloat16Bits> {
    using type = float;
};

template <typename T>
inline typename ArithmeticOf<T>::type toArithmetic(T v) {
    if constexpr (std::is_same_v<T, Half16> || std::is_same_v<T, BFloat16Bits>)
        return elementToFloat(v);
    else
        return v;
}

template <typename T>
inline T fromArithmetic(typename ArithmeticOf<T>::type v) {
    if constexpr (std::is_same_v<T, Half16>)
        return Half16{floatToHalf(v)};
    else if constexpr (std::is_same_v<T, BFloat16Bits>)
        return BFloat16Bits{floatToBfloat16(v)};
    else
        return static_cast<T>(v);
}

// Calls f(T{}) for every numeric dtype (and bool); returns false for String / complex / undefined.
template <typename F>
bool visitNumeric(DataType dtype, F&& f) {
    switch (dtype) {
        case DataType::Float:
            f(float{});
            return true;
        case DataType::Double:
            f(double{});
            return true;
        case DataType::Float16:
            f(Half16{});
            return true;
        case DataType::BFloat16:
            f(BFloat16Bits{});
            return true;
        case DataType::Int8:
            f(int8_t{});
            return true;
        case DataType::UInt8:
            f(uint8_t{});
            return true;
        case DataType::Int16:
            f(int16_t{});
            return true;
        case DataType::UInt16:
            f(uint16_t{});
            return true;
        case DataType::Int32:
            f(int32_t{});
            return true;
        case DataType::UInt32:
            f(uint32_t{});
            return true;
        case DataType::Int64:
            f(int64_t{});
            return true;
        case DataType::UInt64:
            f(uint64_t{});
            return true;
        case DataType::Bool:
            f(bool{});
            return true;
        default:
            return false;
    }
}

}  // namespace ql
