#include "core/exec/kernels/copy_util.h"

#include <algorithm>
#include <cstring>
#include <string>

namespace ql {

Strides contiguousStrides(const Shape& shape) {
    Strides strides(shape.size(), 1);
    for (size_t i = shape.size(); i > 1; --i) strides[i - 2] = strides[i - 1] * shape[i - 1];
    return strides;
}

std::optional<int64_t> normalizeAxis(int64_t axis, int64_t rank) {
    if (axis < -rank || axis >= rank) return std::nullopt;
    return axis < 0 ? axis + rank : axis;
}

Result<std::vector<int64_t>> normalizeAxes(const KernelContext& ctx, std::span<const int64_t> axes, int64_t rank) {
    std::vector<int64_t> out;
    for (int64_t a : axes) {
        auto n = normalizeAxis(a, rank);
        if (!n) return ctx.fail("axis " + std::to_string(a) + " is out of range for rank " + std::to_string(rank));
        if (std::find(out.begin(), out.end(), *n) != out.end())
            return ctx.fail("axis " + std::to_string(a) + " is given twice");
        out.push_back(*n);
    }
    return out;
}

Result<std::vector<int64_t>> readInt64Input(const KernelContext& ctx, size_t input) {
    const Tensor& t = ctx.input(input);
    if (t.dtype() != DataType::Int64 && t.dtype() != DataType::Int32)
        return ctx.fail("input " + std::to_string(input) + " must be int64 (or int32), not " + dataTypeName(t.dtype()));
    return t.toInt64s();
}

Result<std::vector<int64_t>> elementOffsets(const KernelContext& ctx, const Shape& dataShape, const Shape& indexShape,
                                            std::span<const int64_t> indices, int64_t axis) {
    const auto rank = static_cast<int64_t>(dataShape.size());
    const auto a = normalizeAxis(axis, rank);
    if (!a) return ctx.fail("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
    if (indexShape.size() != dataShape.size())
        return ctx.fail("indices " + shapeString(indexShape) + " must have the rank of data " + shapeString(dataShape));
    const Strides strides = contiguousStrides(dataShape);
    const auto ax = static_cast<size_t>(*a);
    std::vector<int64_t> offsets(indices.size());
    std::vector<int64_t> pos(dataShape.size(), 0);
    for (size_t i = 0; i < indices.size(); ++i) {
        const auto idx = normalizeAxis(indices[i], dataShape[ax]);
        if (!idx)
            return ctx.fail("index " + std::to_string(indices[i]) + " is out of range for axis size " +
                            std::to_string(dataShape[ax]));
        int64_t off = 0;
        for (size_t d = 0; d < pos.size(); ++d) {
            if (d != ax && pos[d] >= dataShape[d])
                return ctx.fail("indices " + shapeString(indexShape) + " exceed data " + shapeString(dataShape));
            off += (d == ax ? *idx : pos[d]) * strides[d];
        }
        offsets[i] = off;
        for (size_t d = pos.size(); d-- > 0;) {  // next position of the index tensor
            if (++pos[d] < indexShape[d]) break;
            pos[d] = 0;
        }
    }
    return offsets;
}

std::optional<Shape> broadcastShapes(const Shape& a, const Shape& b) {
    Shape out(std::max(a.size(), b.size()), 1);
    for (size_t i = 0; i < out.size(); ++i) {
        const int64_t da = i < out.size() - a.size() ? 1 : a[i - (out.size() - a.size())];
        const int64_t db = i < out.size() - b.size() ? 1 : b[i - (out.size() - b.size())];
        if (da != db && da != 1 && db != 1) return std::nullopt;
        out[i] = da == 1 ? db : da;
    }
    return out;
}

namespace {

struct Dims {
    Shape shape;
    Strides dst;
    Strides src;
};

// Drops size-1 dimensions and merges neighbours that are contiguous in both source and destination.
Dims coalesce(const Shape& shape, std::span<const int64_t> dst, std::span<const int64_t> src) {
    Dims d;
    for (size_t i = 0; i < shape.size(); ++i) {
        if (shape[i] == 1) continue;
        if (!d.shape.empty() && d.dst.back() == dst[i] * shape[i] && d.src.back() == src[i] * shape[i]) {
            d.shape.back() *= shape[i];
            d.dst.back() = dst[i];
            d.src.back() = src[i];
            continue;
        }
        d.shape.push_back(shape[i]);
        d.dst.push_back(dst[i]);
        d.src.push_back(src[i]);
    }
    if (d.shape.empty()) d = {{1}, {1}, {1}};
    return d;
}

template <size_t N>
void copyRow(std::byte* dst, int64_t dstStride, const std::byte* src, int64_t srcStride, int64_t n) {
    for (int64_t i = 0; i < n; ++i) std::memcpy(dst + i * dstStride * N, src + i * srcStride * N, N);
}

void copyRowAnySize(std::byte* dst, int64_t dstStride, const std::byte* src, int64_t srcStride, int64_t n,
                    size_t size) {
    if (dstStride == 1 && srcStride == 1) {
        std::memcpy(dst, src, static_cast<size_t>(n) * size);
        return;
    }
    switch (size) {
        case 1:
            return copyRow<1>(dst, dstStride, src, srcStride, n);
        case 2:
            return copyRow<2>(dst, dstStride, src, srcStride, n);
        case 4:
            return copyRow<4>(dst, dstStride, src, srcStride, n);
        case 8:
            return copyRow<8>(dst, dstStride, src, srcStride, n);
        default:
            for (int64_t i = 0; i < n; ++i)
                std::memcpy(dst + i * dstStride * static_cast<int64_t>(size),
                            src + i * srcStride * static_cast<int64_t>(size), size);
    }
}

template <size_t N>
void gatherRowOf(std::byte* dst, const std::byte* src, std::span<const int64_t> indices) {
    for (size_t i = 0; i < indices.size(); ++i) std::memcpy(dst + i * N, src + indices[i] * static_cast<int64_t>(N), N);
}

}  // namespace

void gatherRow(std::byte* dst, const std::byte* src, std::span<const int64_t> indices, size_t elementSize) {
    switch (elementSize) {
        case 1:
            return gatherRowOf<1>(dst, src, indices);
        case 2:
            return gatherRowOf<2>(dst, src, indices);
        case 4:
            return gatherRowOf<4>(dst, src, indices);
        case 8:
            return gatherRowOf<8>(dst, src, indices);
        default:
            for (size_t i = 0; i < indices.size(); ++i)
                std::memcpy(dst + i * elementSize, src + static_cast<size_t>(indices[i]) * elementSize, elementSize);
    }
}

void stridedCopy(const Shape& shape, std::byte* dst, std::span<const int64_t> dstStrides, const std::byte* src,
                 std::span<const int64_t> srcStrides, size_t elementSize) {
    if (shapeElementCount(shape) == 0) return;
    const Dims d = coalesce(shape, dstStrides, srcStrides);
    const size_t rank = d.shape.size();
    const auto size = static_cast<int64_t>(elementSize);
    std::vector<int64_t> index(rank, 0);
    const int64_t rows = shapeElementCount(d.shape) / d.shape.back();
    int64_t dstOff = 0, srcOff = 0;
    for (int64_t r = 0; r < rows; ++r) {
        copyRowAnySize(dst + dstOff * size, d.dst.back(), src + srcOff * size, d.src.back(), d.shape.back(),
                       elementSize);
        for (size_t k = rank - 1; k-- > 0;) {  // odometer over the outer dimensions
            dstOff += d.dst[k];
            srcOff += d.src[k];
            if (++index[k] < d.shape[k]) break;
            dstOff -= d.dst[k] * d.shape[k];
            srcOff -= d.src[k] * d.shape[k];
            index[k] = 0;
        }
    }
}

void permuteCopy(const std::byte* src, const Shape& srcShape, std::span<const int64_t> perm, std::byte* dst,
                 size_t elementSize) {
    const Strides inStrides = contiguousStrides(srcShape);
    Shape outShape(perm.size());
    Strides srcStrides(perm.size());
    for (size_t i = 0; i < perm.size(); ++i) {
        outShape[i] = srcShape[static_cast<size_t>(perm[i])];
        srcStrides[i] = inStrides[static_cast<size_t>(perm[i])];
    }
    stridedCopy(outShape, dst, contiguousStrides(outShape), src, srcStrides, elementSize);
}

void copyElements(Tensor& dst, int64_t to, const Tensor& src, int64_t from, int64_t count) {
    const size_t size = dataTypeSize(src.dtype());
    if (count > 0)
        std::memcpy(bytesOf(dst) + static_cast<size_t>(to) * size, bytesOf(src) + static_cast<size_t>(from) * size,
                    static_cast<size_t>(count) * size);
}

void fillBytes(std::byte* dst, int64_t count, const void* value, size_t elementSize) {
    if (count <= 0) return;
    const auto size = static_cast<int64_t>(elementSize);
    std::memcpy(dst, value, elementSize);
    // Doubling copies: log2(count) memcpys.
    for (int64_t filled = 1; filled < count;) {
        const int64_t chunk = std::min(filled, count - filled);
        std::memcpy(dst + filled * size, dst, static_cast<size_t>(chunk * size));
        filled += chunk;
    }
}

void fillElements(Tensor& dst, const void* value) {
    fillBytes(bytesOf(dst), dst.elementCount(), value, dataTypeSize(dst.dtype()));
}

}  // namespace ql
