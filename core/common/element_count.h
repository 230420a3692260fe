#pragma once
// Element and byte counts of shapes read from files. A file can declare any dimensions, so the product is
// computed with overflow checks: a wrapped count would make a tiny allocation look big enough (or the reverse).
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>

namespace ql {

// The product of `dims`, or nullopt when a dimension is negative or the product does not fit in an int64.
inline std::optional<int64_t> checkedElementCount(std::span<const int64_t> dims) {
    int64_t n = 1;
    for (int64_t d : dims) {
        if (d < 0) return std::nullopt;
        if (d != 0 && n > std::numeric_limits<int64_t>::max() / d) return std::nullopt;
        n *= d;
    }
    return n;
}

// Bytes of `dims` elements of `elementSize` bytes, or nullopt under the same conditions or when they overflow.
inline std::optional<uint64_t> checkedByteSize(std::span<const int64_t> dims, size_t elementSize) {
    const std::optional<int64_t> count = checkedElementCount(dims);
    if (!count) return std::nullopt;
    const auto n = static_cast<uint64_t>(*count);
    if (elementSize != 0 && n > std::numeric_limits<uint64_t>::max() / elementSize) return std::nullopt;
    return n * elementSize;
}

}  // namespace ql
