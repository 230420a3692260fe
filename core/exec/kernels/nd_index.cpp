#include "core/exec/kernels/nd_index.h"

#include "core/exec/kernels/copy_util.h"

namespace ql {

Result<NdSlices> ndSlices(const KernelContext& ctx, const Shape& dataShape, const Shape& indexShape,
                          std::span<const int64_t> indices, int64_t batchDims) {
    const auto r = static_cast<int64_t>(dataShape.size());
    const auto q = static_cast<int64_t>(indexShape.size());
    if (q < 1 || batchDims < 0 || batchDims >= std::min(r, q))
        return ctx.fail("batch_dims " + std::to_string(batchDims) + " does not fit data " + shapeString(dataShape) +
                        " and indices " + shapeString(indexShape));
    const int64_t k = indexShape.back();
    if (k < 1 || batchDims + k > r)
        return ctx.fail("index tuples of length " + std::to_string(k) + " do not fit data " + shapeString(dataShape));
    for (int64_t d = 0; d < batchDims; ++d)
        if (dataShape[static_cast<size_t>(d)] != indexShape[static_cast<size_t>(d)])
            return ctx.fail("batch dimensions of data " + shapeString(dataShape) + " and indices " +
                            shapeString(indexShape) + " differ");
    const auto b = static_cast<size_t>(batchDims);
    NdSlices s;
    s.sliceShape.assign(dataShape.begin() + static_cast<std::ptrdiff_t>(b + static_cast<size_t>(k)), dataShape.end());
    s.sliceSize = shapeElementCount(s.sliceShape);
    const Strides strides = contiguousStrides(dataShape);
    const int64_t batchStride = b == 0 ? shapeElementCount(dataShape) : strides[b - 1];
    const auto tuples = static_cast<int64_t>(indices.size()) / k;
    const int64_t perBatch = shapeElementCount(Shape(indexShape.begin() + batchDims, indexShape.end() - 1));
    s.offsets.resize(static_cast<size_t>(tuples));
    for (int64_t t = 0; t < tuples; ++t) {
        int64_t off = perBatch == 0 ? 0 : (t / perBatch) * batchStride;
        for (int64_t j = 0; j < k; ++j) {
            const size_t axis = b + static_cast<size_t>(j);
            const int64_t given = indices[static_cast<size_t>(t * k + j)];
            const auto idx = normalizeAxis(given, dataShape[axis]);
            if (!idx)
                return ctx.fail("index " + std::to_string(given) + " is out of range for axis " + std::to_string(axis) +
                                " of size " + std::to_string(dataShape[axis]));
            off += *idx * strides[axis];
        }
        s.offsets[static_cast<size_t>(t)] = off;
    }
    return s;
}

}  // namespace ql
