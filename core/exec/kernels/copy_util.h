#pragma once
// Helpers shared by the data-movement kernels (Transpose, Slice, Concat, Pad, Gather...): strides, axis
// normalisation, integer inputs, and strided copies by element size so that moving data never depends on
// the element type (bool, int64, float16 and float all move the same way).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/exec/kernel.h"
#include "core/exec/tensor.h"

namespace ql {

using Strides = std::vector<int64_t>;

// Row-major element strides of a shape.
Strides contiguousStrides(const Shape& shape);

// `axis` in [-rank, rank) mapped to [0, rank), or nullopt when out of range.
std::optional<int64_t> normalizeAxis(int64_t axis, int64_t rank);
// Every axis normalised, failing (naming the node) on an out-of-range or repeated axis.
Result<std::vector<int64_t>> normalizeAxes(const KernelContext& ctx, std::span<const int64_t> axes, int64_t rank);

// An integer input (int32 or int64) read as int64s; fails naming the node for another dtype.
Result<std::vector<int64_t>> readInt64Input(const KernelContext& ctx, size_t input);

// GatherElements / ScatterElements addressing: for every position of an `indexShape` tensor (same rank as
// `dataShape`), the flat offset into data of that position with its `axis` coordinate replaced by the index.
// Fails naming the node on a bad axis, rank or out-of-range index.
Result<std::vector<int64_t>> elementOffsets(const KernelContext& ctx, const Shape& dataShape, const Shape& indexShape,
                                            std::span<const int64_t> indices, int64_t axis);

// The numpy broadcast of two shapes, or nullopt when they are incompatible.
std::optional<Shape> broadcastShapes(const Shape& a, const Shape& b);

// Copies an n-d block of `shape` elements, each `elementSize` bytes, from `src` to `dst`, both addressed by
// element strides (a stride may be 0 to repeat, or negative to walk backwards). Adjacent dimensions that are
// contiguous in both are merged so a plain copy runs as one memcpy.
void stridedCopy(const Shape& shape, std::byte* dst, std::span<const int64_t> dstStrides, const std::byte* src,
                 std::span<const int64_t> srcStrides, size_t elementSize);

// Writes `src` (contiguous, seen as `srcShape`) to `dst` with its axes permuted: output axis i is input
// axis perm[i] (Transpose, DepthToSpace, SpaceToDepth).
void permuteCopy(const std::byte* src, const Shape& srcShape, std::span<const int64_t> perm, std::byte* dst,
                 size_t elementSize);

// dst[i] = src[indices[i]] for every i, elements of `elementSize` bytes (a gather along one row).
void gatherRow(std::byte* dst, const std::byte* src, std::span<const int64_t> indices, size_t elementSize);

// Copies `count` elements from index `from` of `src` to index `to` of `dst` (same dtype).
void copyElements(Tensor& dst, int64_t to, const Tensor& src, int64_t from, int64_t count);

// Fills `count` elements of `elementSize` bytes at `dst` with the single element `value` points to.
void fillBytes(std::byte* dst, int64_t count, const void* value, size_t elementSize);
// Fills every element of `dst` with the single element `value` points to.
void fillElements(Tensor& dst, const void* value);

inline std::byte* bytesOf(Tensor& t) {
    return static_cast<std::byte*>(t.rawData());
}
inline const std::byte* bytesOf(const Tensor& t) {
    return static_cast<const std::byte*>(t.rawData());
}

}  // namespace ql
